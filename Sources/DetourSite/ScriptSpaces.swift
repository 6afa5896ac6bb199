/// The spaces and tabs a script's code can do without: between two tokens only where the two
/// would otherwise read as one (`var x`, `a - -b`, `1 .5`), never inside a string or a regular
/// expression, and comments that follow code on a line go too. Newlines stay, so automatic
/// semicolons fall where they fell. The caller keeps scripts with template literals or text
/// continued across lines away from it (`ScriptMinifier`).
///
/// A `/` starts a regular expression, not a division, after an operator, a bracket that opens,
/// a keyword (`return /x/`), a `}` or the `)` of `if (…)`, `while (…)`, `for (…)`, `with (…)`,
/// as JavaScript's grammar reads it.
struct ScriptSpaces {
    private let bytes: [UInt8]
    private var at = 0
    private var out: [UInt8] = []
    /// Spaces, tabs, a comment or a newline since the last byte written.
    private var separated = false
    /// The last byte written other than a newline, the word it ends (if it ends one) and
    /// whether it ends a string or a regular expression.
    private var last: UInt8 = ascii("\n")
    private var lastWord: [UInt8] = []
    private var lastIsLiteral = false
    /// For each `(` still open, whether a keyword that takes a condition opened it.
    private var parentheses: [Bool] = []
    private var closedCondition = false

    static func compact(_ bytes: [UInt8]) -> [UInt8] {
        var spaces = ScriptSpaces(bytes: bytes)
        spaces.run()
        return spaces.out
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func run() {
        while at < bytes.count {
            let byte = bytes[at]
            switch byte {
            case ascii(" "), ascii("\t"), ascii("\r"):
                separated = true
                at += 1
            case ascii("\n"):
                out.append(byte)
                separated = true
                at += 1
            case ascii("\""), ascii("'"):
                copyText(closedBy: byte)
            case ascii("/") where peek(1) == ascii("/"):
                while at < bytes.count, bytes[at] != ascii("\n") { at += 1 }
            case ascii("/") where peek(1) == ascii("*"):
                at += 2
                while at < bytes.count, !(bytes[at] == ascii("*") && peek(1) == ascii("/")) { at += 1 }
                at = min(at + 2, bytes.count)
                separated = true
            case ascii("/") where startsExpression:
                copyRegularExpression()
            default:
                write(byte)
                at += 1
            }
        }
    }

    /// Whether a `/` here begins an operand (a regular expression) rather than dividing one.
    private var startsExpression: Bool {
        if lastIsLiteral { return false }
        if isWordByte(last) {
            return Self.keywordsBeforeAnExpression.contains(lastWord)
        }
        switch last {
        case ascii(")"): return closedCondition
        case ascii("]"): return false
        default: return true
        }
    }

    private static let keywordsBeforeAnExpression: Set<[UInt8]> = Set(
        ["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await"].map { Array($0.utf8) })
    private static let conditionKeywords: Set<[UInt8]> = Set(["if", "while", "for", "with"].map { Array($0.utf8) })

    private mutating func write(_ byte: UInt8) {
        let joinsWord = isWordByte(last) && !separated && !lastIsLiteral
        space(before: byte)
        switch byte {
        case ascii("("):
            parentheses.append(isWordByte(last) && Self.conditionKeywords.contains(lastWord))
        case ascii(")"):
            closedCondition = parentheses.popLast() ?? false
        default: break
        }
        lastWord = isWordByte(byte) ? (joinsWord ? lastWord : []) + [byte] : []
        out.append(byte)
        (last, lastIsLiteral) = (byte, false)
    }

    /// One space where the separated tokens would otherwise join.
    private mutating func space(before byte: UInt8) {
        if separated, out.last != ascii("\n"), !out.isEmpty, Self.needsSpace(between: last, and: byte) { out.append(ascii(" ")) }
        separated = false
    }

    /// Two words, `+ +`, `- -`, `/ /` (a division before a regular expression), a number before
    /// `.`, and the pieces of HTML-like comments (`<!--`, `-->`) keep their space.
    private static func needsSpace(between left: UInt8, and right: UInt8) -> Bool {
        if isWordByte(left) && (isWordByte(right) || right == ascii(".") && isDigit(left)) { return true }
        switch (left, right) {
        case (ascii("+"), ascii("+")), (ascii("-"), ascii("-")), (ascii("/"), ascii("/")), (ascii("/"), ascii("*")),
            (ascii("<"), ascii("!")), (ascii("-"), ascii(">")):
            return true
        default: return false
        }
    }

    /// A string, as it is, to its closing quote (or the line's end, where it is left open).
    private mutating func copyText(closedBy quote: UInt8) {
        let start = at
        at += 1
        while at < bytes.count, bytes[at] != quote, bytes[at] != ascii("\n") {
            at += bytes[at] == ascii("\\") ? 2 : 1
        }
        if at < bytes.count, bytes[at] == quote { at += 1 }
        writeWhole(bytes[start..<min(at, bytes.count)])
    }

    /// `/…/flags`, as it is: a `/` inside `[…]` or escaped does not close it.
    private mutating func copyRegularExpression() {
        let start = at
        at += 1
        var inClass = false
        while at < bytes.count, bytes[at] != ascii("\n") {
            let byte = bytes[at]
            if byte == ascii("\\") {
                at += 2
                continue
            }
            at += 1
            if byte == ascii("[") { inClass = true } else if byte == ascii("]") { inClass = false } else if byte == ascii("/"), !inClass { break }
        }
        while at < bytes.count, isWordByte(bytes[at]) { at += 1 }
        writeWhole(bytes[start..<min(at, bytes.count)])
    }

    /// A literal: spaced from the token before it, and a value, so a `/` after it divides.
    private mutating func writeWhole(_ literal: ArraySlice<UInt8>) {
        guard let first = literal.first, let end = literal.last else { return }
        space(before: first)
        out.append(contentsOf: literal)
        (last, lastWord, lastIsLiteral) = (end, [], true)
    }

    private func peek(_ offset: Int) -> UInt8? { at + offset < bytes.count ? bytes[at + offset] : nil }
}

/// Letters, digits, `_`, `$`, `#`, `\` (an escaped identifier) and any byte of a character
/// beyond ASCII: what may join with its neighbour into one token.
private func isWordByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || (ascii("a")...ascii("z")).contains(byte | 0x20) || byte >= 0x80
        || [ascii("_"), ascii("$"), ascii("#"), ascii("\\")].contains(byte)
}

private func isDigit(_ byte: UInt8) -> Bool { (ascii("0")...ascii("9")).contains(byte) }

private func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }
