import DetourDiagnostics

/// What varnishd's compiler refuses once it has read a VCL (names it refuses while reading are
/// `VCLNamespace`'s and `VCLSymbolCheck`'s): references to nothing (`VCLReferences`), subroutines, ACLs, probes and
/// backends never used, returns a method does not take, and variables out of reach in a method
/// (a subroutine is checked for every method that calls it). The first refusal, in its words.
struct VCLCompileCheck {
    let program: VCLProgram
    let table: VCLTable

    func firstRefusal() -> Diagnostic? {
        var refusals: [Diagnostic] = []
        let reach = VCLReach(program)
        refusals += VCLReferences(program, table: table).undefined(defined: reach.defined).map { refuse($0.message, at: $0.token) }
        refusals += unused(reach)
        if let refusal = refusals.first { return refusal }
        // varnishd checks every method's returns, then every method's uses of variables: each
        // walk takes the methods in its symbol table's order (by name, case aside), a method's
        // own statements first, then the subroutines it calls, in the order it calls them.
        let methods = Set(program.subroutines.filter { !$0.isBuiltin && table.methods[$0.name.text] != nil }.map(\.name.text))
        let ordered = methods.sorted { $0.lowercased() < $1.lowercased() }
        for pass in [Pass.returns, .uses] {
            for method in ordered {
                var visited = Set<String>()
                if let refusal = walk(method, from: method, pass: pass, visited: &visited) { return refusal }
            }
        }
        return nil
    }

    /// varnishd's two walks over the methods once it has read the text.
    private enum Pass {
        case returns, uses
    }

    /// The first refusal in subroutine `name` (every definition of it the VCL has) reached from
    /// `method`, then in those it calls.
    private func walk(_ name: String, from method: String, pass: Pass, visited: inout Set<String>) -> Diagnostic? {
        guard visited.insert(name).inserted else { return nil }
        let definitions = program.definitions(of: name).filter { !$0.isBuiltin }
        for definition in definitions {
            if let refusal = statements(definition.body, in: method, subroutine: name, pass: pass).first { return refusal }
        }
        for definition in definitions {
            var callees: [String] = []
            definition.body.forEachStatement { if case .call(let target) = $0 { callees.append(target.text) } }
            for callee in callees {
                if let refusal = walk(callee, from: method, pass: pass, visited: &visited) { return refusal }
            }
        }
        return nil
    }

    private func refuse(_ message: String, at token: VCLToken) -> Diagnostic {
        .error(VarnishRules.syntax.id, message, at: token.location)
    }

    /// The VCL's ACLs, backends and probes: an ACL may be called `client`, like a variable's scope.
    private var declaredNames: Set<String> { Set((program.acls + program.backends + program.probes).map(\.text)) }

    /// Declarations nothing uses: the first backend is the default, so it is always used.
    private func unused(_ reach: VCLReach) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for subroutine in program.subroutines where !subroutine.isBuiltin && !subroutine.name.text.hasPrefix("vcl_") {
            if !reach.calls.contains(where: { $0.target.text == subroutine.name.text }) {
                found.append(refuse("Unused sub \(subroutine.name.text), defined:", at: subroutine.name))
            }
        }
        let used = Set(reach.namesUsed.map(\.text)).union(program.fieldNames.map(\.text))
        // `probe default` is every backend's probe that names none.
        let probes = program.probes.filter { $0.text != "default" }
        for (kind, names) in [("acl", program.acls), ("probe", probes), ("backend", Array(program.backends.dropFirst()))] {
            found += names.filter { !used.contains($0.text) }.map { refuse("Unused \(kind) \($0.text), defined:", at: $0) }
        }
        return found
    }

    private func statements(_ body: [VCLStatement], in method: String, subroutine: String, pass: Pass) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let uses = pass == .uses
        for statement in body {
            switch statement {
            case .set(let target, _, let value) where uses:
                found += access(
                    target, in: method, need: \.writable, refusal: "Cannot be set in subroutine '\(method)'.", never: "Variable is read only.")
                found += expression(value, in: method)
            case .unset(let target) where uses:
                found += access(
                    target, in: method, need: \.unsetable, refusal: "Cannot be unset in subroutine '\(method)'.", never: "Variable cannot be unset.")
            case .set, .unset, .call: break
            case .returns(let action, let arguments, _):
                if let action, pass == .returns {
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
                if uses { found += arguments.flatMap { expression($0, in: method) } }
            case .branch(let arms, let otherwise):
                for arm in arms {
                    if uses { found += expression(arm.condition, in: method) }
                    found += statements(arm.body, in: method, subroutine: subroutine, pass: pass)
                }
                found += statements(otherwise ?? [], in: method, subroutine: subroutine, pass: pass)
            case .block(let inner):
                found += statements(inner, in: method, subroutine: subroutine, pass: pass)
            case .synthetic(let value, _) where uses:
                found += expression(value, in: method)
            case .other(let tokens) where uses:
                found += expression(tokens, in: method)
            case .synthetic, .other: break
            }
            if !found.isEmpty { return found }
        }
        return found
    }

    /// A variable's name open to what the statement does in `method` (the parser refused
    /// those varnishd does not know).
    private func access(
        _ target: VCLToken, in method: String, need: KeyPath<VCLTable.Variable, Set<String>>, refusal: String, never: String
    ) -> [Diagnostic] {
        guard !target.text.hasPrefix("storage."), let variable = table.variable(target.text, syntax: program.syntax) else { return [] }
        if variable[keyPath: need].isEmpty { return [refuse(never, at: target)] }
        if !variable[keyPath: need].contains(method) {
            return [refuse(variable.readable.contains(method) ? refusal : "Not available in subroutine '\(method)'.", at: target)]
        }
        return []
    }

    /// The variables an expression reads, each within reach of `method`.
    private func expression(_ tokens: [VCLToken], in method: String) -> [Diagnostic] {
        for (offset, token) in tokens.enumerated() where token.kind == .name {
            guard offset + 1 >= tokens.count || !tokens[offset + 1].isSymbol("("), table.looksLikeVariable(token.text),
                !token.text.hasPrefix("storage."), !declaredNames.contains(token.text), let variable = table.variable(token.text, syntax: program.syntax)
            else { continue }
            if !variable.readable.contains(method), variable.type != "BODY" {
                return [refuse("Not available in subroutine '\(method)'.", at: token)]
            }
        }
        return []
    }
}
