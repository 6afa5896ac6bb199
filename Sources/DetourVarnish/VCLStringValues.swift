/// The strings a VCL expression of `+`-joined parts can make: a literal as it is, the status
/// as the number it is, a variable as each literal the VCL ever sets it to
/// (`bereq.http.X-Detour-Language` → `en`, `de`). nil when a part can be anything.
struct VCLStringValues {
    /// Each variable's literal values, in the order the VCL sets them.
    let assignments: [String: [String]]
    /// Combinations past this are not worth naming one by one.
    static let limit = 512

    init(_ program: VCLProgram) {
        var found: [String: [String]] = [:]
        // Variables set to anything but one literal somewhere: they can be anything.
        var open: Set<String> = []
        for subroutine in program.subroutines where !subroutine.isBuiltin {
            subroutine.body.forEachStatement { statement in
                guard case .set(let target, let op, let value) = statement else { return }
                guard op == "=", value.count == 1, value[0].kind == .string else {
                    open.insert(target.text)
                    return
                }
                if !(found[target.text]?.contains(value[0].text) ?? false) { found[target.text, default: []].append(value[0].text) }
            }
        }
        assignments = found.filter { !open.contains($0.key) }
    }

    func values(_ tokens: [VCLToken], statusVariable: String, status: Int) -> [String]? {
        var results = [""]
        var part: [VCLToken] = []
        for token in tokens + [VCLToken(kind: .symbol, text: "+", location: tokens.last?.location ?? .init(path: ""))] {
            guard token.isSymbol("+") else {
                part.append(token)
                continue
            }
            guard part.count == 1 else { return nil }
            let choices: [String]
            switch part[0].kind {
            case .string: choices = [part[0].text]
            case .number: choices = [part[0].text]
            case .name where part[0].text == statusVariable: choices = [String(status)]
            case .name:
                guard let known = assignments[part[0].text], !known.isEmpty else { return nil }
                choices = known
            default: return nil
            }
            results = results.flatMap { prefix in choices.map { prefix + $0 } }
            guard results.count <= Self.limit else { return nil }
            part = []
        }
        return results
    }
}
