import Foundation

/// An `if` condition's value where a check knows enough: comparisons of the status variable
/// with a number, names a path fixes (`bereq.is_bgfetch` is false for a visitor's fetch; the
/// backend's own error carries no `X-Detour-Page`; a header fixed as absent matches no
/// string), texts it fixes compared with a string (`req.method == "GET"`), numbers it fixes
/// compared with a number (`bereq.retries < 2` on a fetch's first try), joined by `!`,
/// `&&`, `||` and parentheses. Anything else is unknown, and both ways are followed.
struct VCLCondition {
    /// What a path knows: the status and the names with a fixed truth.
    var statusVariable: String
    var status: Int?
    var facts: [String: Bool]
    var values: [String: String] = [:]
    var numbers: [String: Int] = [:]
    /// beresp.ttl in seconds, where the path knows it (`VCLPath.knownTTL`).
    var ttl: Double? = nil

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
        if words.first?.kind == .name, let fact = fact(words[0].text) {
            if words.count == 1 { return fact }
            // An absent header: `~` and `==` never hold, `!~` and `!=` always do.
            if !fact, words.count == 3, words[2].kind == .string {
                switch words[1].text {
                case "~", "==": return false
                case "!~", "!=": return true
                default: return nil
                }
            }
        }
        if words.count == 3, words[0].kind == .name, let value = values[words[0].text], words[2].kind == .string {
            return Self.compare(text: value, words[1].text, words[2].text)
        }
        if words.count == 3, words[0].kind == .name, let value = numbers[words[0].text], words[2].kind == .number, let number = Int(words[2].text) {
            return Self.compare(value, words[1].text, number)
        }
        // `beresp.ttl <= 0s`: a duration is a number and its unit.
        if words.count == 4, words[0].isName("beresp.ttl"), let ttl, words[2].kind == .number, let number = Double(words[2].text),
            let unit = Self.units[words[3].text]
        {
            return Self.compare(ttl, words[1].text, number * unit)
        }
        guard words.count == 3, let status else { return nil }
        let (left, op, right) = (words[0], words[1].text, words[2])
        if left.isName(statusVariable), right.kind == .number, let number = Int(right.text) { return Self.compare(status, op, number) }
        if right.isName(statusVariable), left.kind == .number, let number = Int(left.text) { return Self.compare(number, op, status) }
        return nil
    }

    /// A name's fixed truth; header names (`req.http.Upgrade`) are compared without case, as
    /// Varnish compares them.
    private func fact(_ name: String) -> Bool? {
        if let fact = facts[name] { return fact }
        guard name.contains(".http.") else { return nil }
        return facts.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// A known text compared with a string: equality, or a regular expression (PCRE in
    /// varnishd; unknown where Foundation's engine cannot read the pattern).
    private static func compare(text: String, _ op: String, _ string: String) -> Bool? {
        switch op {
        case "==": return text == string
        case "!=": return text != string
        case "~", "!~":
            guard let regex = try? NSRegularExpression(pattern: string) else { return nil }
            let matches = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            return op == "~" ? matches : !matches
        default: return nil
        }
    }

    /// Seconds in each unit of a VCL duration.
    static let units: [String: Double] = ["ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800, "y": 31_536_000]

    private static func compare<Value: Comparable>(_ left: Value, _ op: String, _ right: Value) -> Bool? {
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
