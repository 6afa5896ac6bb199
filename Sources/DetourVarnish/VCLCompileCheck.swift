import DetourDiagnostics

/// What varnishd's compiler refuses once a VCL parses: subroutine names it reserves or sees
/// twice, VMODs it cannot find, calls to nothing, subroutines, ACLs, probes and backends never
/// used, variables unknown or out of reach in a method (a subroutine is checked for every
/// method that calls it), and returns a method does not take. The first refusal, in its words.
struct VCLCompileCheck {
    let program: VCLProgram
    let table: VCLTable

    /// Names varnishd knows without a declaration: booleans, duration units, `default`.
    private static let plainNames: Set<String> = ["true", "false", "default", "ms", "s", "m", "h", "d", "w", "y"]

    func firstRefusal() -> Diagnostic? {
        var refusals: [Diagnostic] = []
        refusals += names()
        refusals += imports()
        if let refusal = refusals.first { return refusal }
        let reach = VCLReach(program)
        refusals += calls(reach)
        refusals += unused(reach)
        if let refusal = refusals.first { return refusal }
        for subroutine in program.subroutines where !subroutine.isBuiltin {
            for method in reach.methods(reaching: subroutine.name.text).sorted() {
                if let refusal = statements(subroutine.body, in: method, subroutine: subroutine.name.text).first { return refusal }
            }
        }
        return nil
    }

    private func refuse(_ message: String, at token: VCLToken) -> Diagnostic {
        .error(VarnishRules.syntax.id, message, at: token.location)
    }

    private func names() -> [Diagnostic] {
        var seen: [String: VCLToken] = [:]
        var found: [Diagnostic] = []
        for subroutine in program.subroutines where !subroutine.isBuiltin {
            let name = subroutine.name.text
            if name.hasPrefix("vcl_") {
                if table.methods[name] == nil, !table.builtinSubroutines.contains(name) {
                    found.append(refuse("The names 'vcl_*' are reserved for subroutines.", at: subroutine.name))
                }
            } else if let first = seen[name] {
                found.append(
                    Diagnostic(
                        .error, VarnishRules.syntax.id, "Subroutine '\(name)' redefined", at: subroutine.name.location,
                        notes: [.init("previously defined here", at: first.location)]))
            } else {
                seen[name] = subroutine.name
            }
        }
        return found
    }

    private func imports() -> [Diagnostic] {
        program.imports.filter { !table.vmods.contains($0.text) }.map { refuse("Could not find VMOD \($0.text)", at: $0) }
    }

    private func calls(_ reach: VCLReach) -> [Diagnostic] {
        reach.calls.filter { reach.defined[$0.target.text] == nil }.map { refuse("Undefined sub \($0.target.text), first reference:", at: $0.target) }
    }

    /// Declarations nothing uses: the first backend is the default, so it is always used.
    private func unused(_ reach: VCLReach) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for subroutine in program.subroutines where !subroutine.isBuiltin && !subroutine.name.text.hasPrefix("vcl_") {
            if !reach.calls.contains(where: { $0.target.text == subroutine.name.text }) {
                found.append(refuse("Unused sub \(subroutine.name.text), defined:", at: subroutine.name))
            }
        }
        let used = Set(reach.namesUsed.map(\.text)).union(program.fieldNames.map(\.text))
        for (kind, names) in [("acl", program.acls), ("probe", program.probes), ("backend", Array(program.backends.dropFirst()))] {
            found += names.filter { !used.contains($0.text) }.map { refuse("Unused \(kind) \($0.text), defined:", at: $0) }
        }
        return found
    }

    private func statements(_ body: [VCLStatement], in method: String, subroutine: String) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for statement in body {
            switch statement {
            case .set(let target, _, let value):
                found += access(target, in: method, need: \.writable, refusal: "Cannot be set in subroutine '\(method)'.", never: "Variable is read only.")
                found += expression(value, in: method)
            case .unset(let target):
                found += access(
                    target, in: method, need: \.unsetable, refusal: "Cannot be unset in subroutine '\(method)'.", never: "Variable cannot be unset.")
            case .call: break
            case .returns(let action, let arguments, _):
                if let action {
                    if !table.actions.contains(action.text) {
                        found.append(refuse("Expected return action name.", at: action))
                    } else if action.text == "vcl", let label = arguments.first?.first {
                        // A label exists only once `vcl.label` made it, never where varnishd compiles a file.
                        found.append(refuse("Symbol not found: '\(label.text)' (a VCL label, which varnishd knows only once 'vcl.label' loaded it)", at: label))
                    } else if let legal = table.methods[method], !legal.contains(action.text) {
                        let place = subroutine == method ? "\"\(method)\"" : "subroutine \"\(subroutine)\", which is reached from \"\(method)\""
                        let legalText = legal.sorted().map { "\"\($0)\"" }.joined(separator: " ")
                        found.append(refuse("Invalid return \"\(action.text)\" in \(place): legal returns there are \(legalText)", at: action))
                    }
                }
                found += arguments.flatMap { expression($0, in: method) }
            case .branch(let arms, let otherwise):
                for arm in arms {
                    found += expression(arm.condition, in: method)
                    found += statements(arm.body, in: method, subroutine: subroutine)
                }
                found += statements(otherwise ?? [], in: method, subroutine: subroutine)
            case .block(let inner):
                found += statements(inner, in: method, subroutine: subroutine)
            case .synthetic(let value, _):
                found += expression(value, in: method)
            case .other(let tokens):
                found += expression(tokens, in: method)
            }
            if !found.isEmpty { return found }
        }
        return found
    }

    /// A variable's name: known, and open to what the statement does in `method`.
    private func access(
        _ target: VCLToken, in method: String, need: KeyPath<VCLTable.Variable, Set<String>>, refusal: String, never: String
    ) -> [Diagnostic] {
        guard !target.text.hasPrefix("storage.") else { return [] }
        guard let variable = table.variable(target.text) else { return [refuse("Symbol not found: '\(target.text)'", at: target)] }
        if variable[keyPath: need].isEmpty { return [refuse(never, at: target)] }
        if !variable[keyPath: need].contains(method) {
            return [refuse(variable.readable.contains(method) ? refusal : "Not available in subroutine '\(method)'.", at: target)]
        }
        return []
    }

    /// The names an expression reads: variables within reach of `method`, functions known (a
    /// VMOD's only once imported).
    private func expression(_ tokens: [VCLToken], in method: String) -> [Diagnostic] {
        for (offset, token) in tokens.enumerated() where token.kind == .name {
            let isCall = offset + 1 < tokens.count && tokens[offset + 1].isSymbol("(")
            if isCall {
                let vmod = token.text.split(separator: ".").first.map(String.init) ?? token.text
                let imported = program.imports.contains { $0.text == vmod }
                let known = table.functions[token.text] != nil && (!token.text.contains(".") || imported)
                let objectMethod = token.text.contains(".") && !table.vmods.contains(vmod)
                if !known, !objectMethod, !Self.plainNames.contains(token.text) {
                    return [refuse("Symbol not found: '\(token.text)'", at: token)]
                }
            } else if table.looksLikeVariable(token.text), !token.text.hasPrefix("storage.") {
                guard let variable = table.variable(token.text) else { return [refuse("Symbol not found: '\(token.text)'", at: token)] }
                if !variable.readable.contains(method), variable.type != "BODY" {
                    return [refuse("Not available in subroutine '\(method)'.", at: token)]
                }
            }
        }
        return []
    }
}
