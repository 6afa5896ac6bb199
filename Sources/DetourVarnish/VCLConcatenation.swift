/// varnishd's refusal of `+` between a number, a duration, a time or a boolean and a string
/// where the expression is not read as a string: the value of a body's `set` and each side of a
/// comparison (`set resp.body = resp.status + " " + resp.reason;`). Where the value is read as a
/// string (a header, `synthetic`, a function's argument) the number is turned into one, and
/// a string first makes the rest text anywhere. The additions VCL has, and its words for the
/// others, are vcc_expr_add()'s in lib/libvcc/vcc_expr.c (Varnish 7.1).
struct VCLConcatenation {
    let table: VCLTable
    let syntax: String

    /// The additions and subtractions VCL has: the left and right types and the result.
    private static let arithmetic: [String: String] = [
        "+BYTES BYTES": "BYTES", "-BYTES BYTES": "BYTES", "+DURATION DURATION": "DURATION", "-DURATION DURATION": "DURATION",
        "+INT INT": "INT", "-INT INT": "INT", "+INT REAL": "REAL", "-INT REAL": "REAL", "+REAL INT": "REAL", "-REAL INT": "REAL",
        "+REAL REAL": "REAL", "-REAL REAL": "REAL", "-TIME TIME": "DURATION", "+TIME DURATION": "TIME", "-TIME DURATION": "TIME",
    ]
    /// Left types whose `+ STRING` varnishd refuses in words this check repeats (an IP's right
    /// side is read as an address, a backend's as a name: other words).
    private static let refusedLeft: Set<String> = ["INT", "REAL", "DURATION", "TIME", "BOOL", "BYTES"]
    private static let comparisons: Set<String> = ["==", "!=", "<", ">", "<=", ">=", "~", "!~", "&&", "||"]

    /// The first refused `+` in an expression that is not read as a string, in varnishd's words.
    func refusal(in tokens: [VCLToken]) -> (message: String, at: VCLToken)? {
        var start = 0
        var depth = 0
        for (index, token) in tokens.enumerated() {
            if token.isSymbol("(") { depth += 1 }
            if token.isSymbol(")") { depth -= 1 }
            guard depth == 0, token.kind == .symbol, Self.comparisons.contains(token.text) else { continue }
            if let found = chain(tokens[start..<index]) { return found }
            start = index + 1
        }
        return chain(tokens[start...])
    }

    /// One sum, term by term while each term's type is known.
    private func chain(_ tokens: ArraySlice<VCLToken>) -> (message: String, at: VCLToken)? {
        var at = tokens.startIndex
        guard var left = term(tokens, &at) else { return nil }
        while at < tokens.endIndex, tokens[at].isSymbol("+") || tokens[at].isSymbol("-") {
            let op = tokens[at]
            at += 1
            guard let right = term(tokens, &at) else { return nil }
            if let result = Self.arithmetic[op.text + left + " " + right] {
                left = result
            } else if op.text == "+", left == "STRING" {
                continue
            } else if op.text == "+", right == "STRING", Self.refusedLeft.contains(left) {
                return ("\(left) + STRING not possible.", op)
            } else {
                return nil
            }
        }
        return nil
    }

    /// The type of the term at `at`, moving past it; nil when this check cannot tell it.
    private func term(_ tokens: ArraySlice<VCLToken>, _ at: inout Int) -> String? {
        guard at < tokens.endIndex else { return nil }
        let token = tokens[at]
        at += 1
        let type: String?
        switch token.kind {
        case .string:
            type = "STRING"
        case .number:
            if at < tokens.endIndex, tokens[at].kind == .name {
                guard VCLCondition.units[tokens[at].text] != nil else { return nil }
                at += 1
                type = "DURATION"
            } else {
                type = token.text.contains(".") ? "REAL" : "INT"
            }
        case .name where at < tokens.endIndex && tokens[at].isSymbol("("):
            var depth = 0
            while at < tokens.endIndex {
                if tokens[at].isSymbol("(") { depth += 1 }
                if tokens[at].isSymbol(")") { depth -= 1 }
                at += 1
                if depth == 0 { break }
            }
            type = table.functions[token.text]
        case .name where token.text == "true" || token.text == "false":
            type = "BOOL"
        case .name:
            type = table.variable(token.text, syntax: syntax).map { $0.type == "HEADER" ? "STRING" : $0.type }
        default:
            return nil
        }
        // A product's type is not followed here.
        if at < tokens.endIndex, tokens[at].isSymbol("*") || tokens[at].isSymbol("/") { return nil }
        return type
    }
}
