/// An `if` condition's value where a check knows enough: comparisons of the status variable
/// with a number, names a path fixes (`bereq.is_bgfetch` is false for a visitor's fetch; the
/// backend's own error carries no `X-Detour-Page`), joined by `!`, `&&`, `||` and
/// parentheses. Anything else is unknown, and both ways are followed.
struct VCLCondition {
    /// What a path knows: the status and the names with a fixed truth.
    var statusVariable: String
    var status: Int?
    var facts: [String: Bool]

    /// true, false, or nil for unknown.
    func evaluate(_ tokens: [VCLToken]) -> Bool? {
        var index = 0
        let value = or(tokens, &index)
        return index == tokens.count ? value : nil
    }

    private func or(_ tokens: [VCLToken], _ index: inout Int) -> Bool? {
        var value = and(tokens, &index)
        while index < tokens.count, tokens[index].isSymbol("||") {
            index += 1
            let right = and(tokens, &index)
            value = value == true || right == true ? true : (value == false && right == false ? false : nil)
        }
        return value
    }

    private func and(_ tokens: [VCLToken], _ index: inout Int) -> Bool? {
        var value = not(tokens, &index)
        while index < tokens.count, tokens[index].isSymbol("&&") {
            index += 1
            let right = not(tokens, &index)
            value = value == false || right == false ? false : (value == true && right == true ? true : nil)
        }
        return value
    }

    private func not(_ tokens: [VCLToken], _ index: inout Int) -> Bool? {
        if index < tokens.count, tokens[index].isSymbol("!") {
            index += 1
            return not(tokens, &index).map { !$0 }
        }
        return atom(tokens, &index)
    }

    private func atom(_ tokens: [VCLToken], _ index: inout Int) -> Bool? {
        guard index < tokens.count else { return nil }
        if tokens[index].isSymbol("(") {
            index += 1
            let value = or(tokens, &index)
            if index < tokens.count, tokens[index].isSymbol(")") { index += 1 }
            return value
        }
        // An operand and what follows it up to the next && or || at this depth.
        let start = index
        var depth = 0
        while index < tokens.count {
            let token = tokens[index]
            if depth == 0, token.isSymbol("&&") || token.isSymbol("||") || token.isSymbol(")") { break }
            if token.isSymbol("(") { depth += 1 }
            if token.isSymbol(")") { depth -= 1 }
            index += 1
        }
        let words = Array(tokens[start..<index])
        if words.count == 1, words[0].kind == .name, let fact = facts[words[0].text] { return fact }
        guard words.count == 3, let status else { return nil }
        let (left, op, right) = (words[0], words[1].text, words[2])
        if left.isName(statusVariable), right.kind == .number, let number = Int(right.text) { return Self.compare(status, op, number) }
        if right.isName(statusVariable), left.kind == .number, let number = Int(left.text) { return Self.compare(number, op, status) }
        return nil
    }

    private static func compare(_ left: Int, _ op: String, _ right: Int) -> Bool? {
        switch op {
        case "==": return left == right
        case "!=": return left != right
        case "<": return left < right
        case "<=": return left <= right
        case ">": return left > right
        case ">=": return left >= right
        default: return nil
        }
    }
}
