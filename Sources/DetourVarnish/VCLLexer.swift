import DetourDiagnostics

/// Splits a VCL file into tokens as varnishd's compiler does: `#`, `//` and `/* */` comments,
/// `"…"` strings on one line, `{"…"}` and `"""…"""` strings over several, `C{ … }C` inline C,
/// names of letters, digits, `_`, `-` and `.` that start with a letter, numbers, and operators
/// (two-character ones first). What it cannot read is reported in varnishd's words.
struct VCLLexer {
    private static let pairs: Set<String> = ["==", "!=", "<=", ">=", "&&", "||", "!~", "+=", "-=", "*=", "/=", "++", "--"]
    private static let singles: Set<UInt8> = Set("{}()[];,.=+-*/!<>~&|%".utf8)

    private let bytes: [UInt8]
    private let path: String
    private var offset = 0
    private var line = 1
    private var lineStart = 0

    private init(bytes: [UInt8], path: String) {
        self.bytes = bytes
        self.path = path
    }

    /// The tokens of `bytes`, or the first thing varnishd would refuse there.
    static func tokens(_ bytes: [UInt8], path: String) -> Result<[VCLToken], Diagnostic> {
        var lexer = VCLLexer(bytes: bytes, path: path)
        return lexer.run()
    }

    private var location: SourceLocation { SourceLocation(path: path, line: line, column: offset - lineStart + 1) }

    private func byte(_ at: Int) -> UInt8? { at < bytes.count ? bytes[at] : nil }

    private func starts(_ text: String, at: Int) -> Bool {
        let utf8 = Array(text.utf8)
        return at + utf8.count <= bytes.count && Array(bytes[at..<at + utf8.count]) == utf8
    }

    /// Moves past `count` bytes, counting lines.
    private mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where offset < bytes.count {
            if bytes[offset] == UInt8(ascii: "\n") {
                line += 1
                lineStart = offset + 1
            }
            offset += 1
        }
    }

    /// Moves to just past `end`, or fails at `start` with `message`.
    private mutating func skip(to end: String, from start: SourceLocation, message: String) -> Diagnostic? {
        while offset < bytes.count {
            if starts(end, at: offset) {
                advance(end.utf8.count)
                return nil
            }
            advance()
        }
        return Diagnostic.error(VarnishRules.syntax.id, message, at: start)
    }

    private mutating func run() -> Result<[VCLToken], Diagnostic> {
        var tokens: [VCLToken] = []
        while offset < bytes.count {
            let byte = bytes[offset]
            let start = location
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                advance()
            } else if byte == UInt8(ascii: "#") || starts("//", at: offset) {
                while offset < bytes.count, bytes[offset] != UInt8(ascii: "\n") { advance() }
            } else if starts("/*", at: offset) {
                advance(2)
                if let failure = skip(to: "*/", from: start, message: "Unterminated /* ... */ comment") { return .failure(failure) }
            } else if starts("C{", at: offset) {
                let from = offset + 2
                advance(2)
                if let failure = skip(to: "}C", from: start, message: "Unterminated inline C source") { return .failure(failure) }
                tokens.append(VCLToken(kind: .inlineC, text: String(decoding: bytes[from..<offset - 2], as: UTF8.self), location: start))
            } else if starts("{\"", at: offset) || starts("\"\"\"", at: offset) {
                let triple = byte == UInt8(ascii: "\"")
                let from = offset + (triple ? 3 : 2)
                advance(triple ? 3 : 2)
                if let failure = skip(to: triple ? "\"\"\"" : "\"}", from: start, message: "Unterminated long-string") { return .failure(failure) }
                let to = offset - (triple ? 3 : 2)
                tokens.append(VCLToken(kind: .string, text: String(decoding: bytes[from..<to], as: UTF8.self), location: start))
            } else if byte == UInt8(ascii: "\"") {
                advance()
                let from = offset
                while offset < bytes.count, bytes[offset] != UInt8(ascii: "\""), bytes[offset] != UInt8(ascii: "\n") { advance() }
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                    return .failure(Diagnostic.error(VarnishRules.syntax.id, "Unterminated string", at: start))
                }
                tokens.append(VCLToken(kind: .string, text: String(decoding: bytes[from..<offset], as: UTF8.self), location: start))
                advance()
            } else if Self.isLetter(byte) {
                let from = offset
                while let next = self.byte(offset),
                    Self.isLetter(next) || Self.isDigit(next) || next == UInt8(ascii: "_") || next == UInt8(ascii: "-")
                        || next == UInt8(ascii: ".")
                {
                    advance()
                }
                tokens.append(VCLToken(kind: .name, text: String(decoding: bytes[from..<offset], as: UTF8.self), location: start))
            } else if Self.isDigit(byte) {
                let from = offset
                while let next = self.byte(offset), Self.isDigit(next) || next == UInt8(ascii: ".") { advance() }
                tokens.append(VCLToken(kind: .number, text: String(decoding: bytes[from..<offset], as: UTF8.self), location: start))
            } else if offset + 1 < bytes.count, Self.pairs.contains(String(decoding: bytes[offset...offset + 1], as: UTF8.self)) {
                tokens.append(VCLToken(kind: .symbol, text: String(decoding: bytes[offset...offset + 1], as: UTF8.self), location: start))
                advance(2)
            } else if Self.singles.contains(byte) {
                tokens.append(VCLToken(kind: .symbol, text: String(UnicodeScalar(byte)), location: start))
                advance()
            } else {
                return .failure(Diagnostic.error(VarnishRules.syntax.id, "Syntax error at '\(String(decoding: [byte], as: UTF8.self))'", at: start))
            }
        }
        return .success(tokens)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
