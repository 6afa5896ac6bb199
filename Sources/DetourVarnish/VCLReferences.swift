/// The names a VCL refers to without defining them, as varnishd's compiler lists them once it
/// has read the text: each at its first reference, in its symbol table's order (by name, case
/// aside), whatever its kind. A name is a subroutine where it is `call`ed, a backend where a
/// backend variable is set to it or compared with it or a director is given it
/// (`add_backend`), an ACL where an address is matched against it (`~`).
struct VCLReferences {
    let program: VCLProgram
    let table: VCLTable
    /// The objects `new` makes.
    private let objects: Set<String>

    init(_ program: VCLProgram, table: VCLTable) {
        (self.program, self.table) = (program, table)
        var names: Set<String> = []
        for subroutine in program.subroutines where !subroutine.isBuiltin {
            subroutine.body.forEachStatement { statement in
                if case .other(let tokens) = statement, tokens.count > 1, tokens[0].isName("new") { names.insert(tokens[1].text) }
            }
        }
        objects = names
    }

    /// varnishd's words for each undefined one, first to last.
    func undefined(defined subroutines: [String: [VCLSubroutine]]) -> [(message: String, token: VCLToken)] {
        let backends = Set(program.backends.map(\.text))
        let acls = Set(program.acls.map(\.text))
        var first: [String: (kind: String, token: VCLToken)] = [:]
        for (kind, token) in references() where first[token.text] == nil {
            let defined =
                switch kind {
                case "sub": subroutines[token.text] != nil
                case "backend": backends.contains(token.text)
                default: acls.contains(token.text)
                }
            if !defined { first[token.text] = (kind, token) }
        }
        return first.values.sorted { $0.token.text.lowercased() < $1.token.text.lowercased() }.map {
            ("Undefined \($0.kind) \($0.token.text), first reference:", $0.token)
        }
    }

    /// Every reference, in reading order.
    private func references() -> [(kind: String, token: VCLToken)] {
        var found: [(String, VCLToken)] = []
        for subroutine in program.subroutines where !subroutine.isBuiltin {
            subroutine.body.forEachStatement { statement in
                switch statement {
                case .call(let target): found.append(("sub", target))
                case .set(let target, _, let value):
                    if value.count == 1, isBackendVariable(target.text), let name = value.first, isBareName(name, in: value, at: 0) {
                        found.append(("backend", name))
                    }
                    found += inExpression(value)
                case .synthetic(let tokens, _), .other(let tokens): found += inExpression(tokens)
                case .returns(_, let arguments, _): found += arguments.flatMap(inExpression)
                case .branch(let arms, _): found += arms.flatMap { inExpression($0.condition) }
                case .unset, .block: break
                }
            }
        }
        return found
    }

    /// The backends and ACLs an expression names: after a backend variable's `==` or `!=`, as
    /// `add_backend`'s argument, after `~` or `!~`.
    private func inExpression(_ tokens: [VCLToken]) -> [(kind: String, token: VCLToken)] {
        var found: [(String, VCLToken)] = []
        for index in tokens.indices.dropFirst() where isBareName(tokens[index], in: tokens, at: index) {
            let before = tokens[index - 1]
            if before.isSymbol("~") || before.isSymbol("!~") {
                found.append(("acl", tokens[index]))
            } else if (before.isSymbol("==") || before.isSymbol("!=")) && index >= 2 && isBackendVariable(tokens[index - 2].text) {
                found.append(("backend", tokens[index]))
            } else if before.isSymbol("("), index >= 2, tokens[index - 2].kind == .name, tokens[index - 2].text.hasSuffix(".add_backend") {
                found.append(("backend", tokens[index]))
            }
        }
        return found
    }

    private func isBackendVariable(_ name: String) -> Bool {
        table.variable(name, syntax: program.syntax)?.type == "BACKEND"
    }

    /// A name of no variable, function, object or VMOD: one only a declaration can give.
    private func isBareName(_ token: VCLToken, in tokens: [VCLToken], at index: Int) -> Bool {
        guard token.kind == .name, !token.text.contains("."), !Self.plainNames.contains(token.text) else { return false }
        if index + 1 < tokens.count, tokens[index + 1].isSymbol("(") { return false }
        return table.variable(token.text, syntax: program.syntax) == nil && !objects.contains(token.text)
    }

    /// Names varnishd knows without a declaration: booleans, `default`.
    private static let plainNames: Set<String> = ["true", "false", "default"]
}
