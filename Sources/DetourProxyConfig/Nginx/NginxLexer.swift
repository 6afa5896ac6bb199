import DetourDiagnostics

/// nginx's lexical rules, as `ngx_conf_read_token` applies them: words end at white space,
/// `;` or `{` (so `foo}` is one word); `#` starts a comment only where a word could start;
/// quotes keep everything literal and must be followed by white space, `;`, `{` or `)`;
/// `${name}` does not open a block; a backslash takes the next byte literally. Works on bytes
/// and never stops early: an error is recorded and lexing goes on at the next line.
struct NginxLexer {
    private let bytes: [UInt8]
    private let path: String
    private var index = 0
    private var line = 1
    private var column = 1
    private(set) var diagnostics: [Diagnostic] = []

    init(_ bytes: [UInt8], path: String) {
        self.bytes = bytes
        self.path = path
    }

    /// Bytes that end an unquoted word, as a table: tested once per byte of the file.
    private static let endsWord: [Bool] = (0...255).map { [0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: ";"), UInt8(ascii: "{")].contains(UInt8($0)) }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Every token, then whether the text ended inside an unterminated quote.
    mutating func tokens() -> (tokens: [NginxToken], unterminatedQuote: Bool) {
        var tokens: [NginxToken] = []
        tokens.reserveCapacity(bytes.count / 6)
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x09, 0x0D, 0x0A:
                advance()
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != 0x0A { advance() }
            case UInt8(ascii: ";"):
                tokens.append(NginxToken(kind: .semicolon, line: line, column: column))
                advance()
            case UInt8(ascii: "{"):
                tokens.append(NginxToken(kind: .blockStart, line: line, column: column))
                advance()
                if Self.opensLuaBlock(tokens) {
                    guard let end = skipLua() else { return (tokens, false) }
                    tokens.append(end)
                }
            case UInt8(ascii: "}"):
                tokens.append(NginxToken(kind: .blockEnd, line: line, column: column))
                advance()
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard let token = quoted(byte) else { return (tokens, true) }
                tokens.append(token)
            default:
                tokens.append(word())
            }
        }
        return (tokens, false)
    }

    private mutating func advance() {
        if bytes[index] == 0x0A {
            line += 1
            column = 1
        } else if bytes[index] & 0xC0 != 0x80 {
            column += 1
        }
        index += 1
    }

    /// Whether the directive just opened (`content_by_lua_block {`) holds Lua code.
    private static func opensLuaBlock(_ tokens: [NginxToken]) -> Bool {
        var index = tokens.count - 2
        var name: String?
        while index >= 0 {
            switch tokens[index].kind {
            case .word(let value, _): name = value
            default: index = 0
            }
            index -= 1
        }
        return name.map(NginxDirectiveKinds.isLuaBlock) ?? false
    }

    /// Skips a Lua body up to its closing brace, past Lua strings (`'…'`, `"…"`, `[[…]]`,
    /// `[==[…]==]`) and comments (`-- …`, `--[[…]]`); returns the closing brace's token, or nil
    /// at the end of the file.
    private mutating func skipLua() -> NginxToken? {
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                depth += 1
                advance()
            case UInt8(ascii: "}"):
                if depth == 0 {
                    let token = NginxToken(kind: .blockEnd, line: line, column: column)
                    advance()
                    return token
                }
                depth -= 1
                advance()
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                advance()
                while index < bytes.count, bytes[index] != byte, bytes[index] != 0x0A {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { advance() }
                    advance()
                }
                if index < bytes.count { advance() }
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                advance(); advance()
                if !skipLongBracket() {
                    while index < bytes.count, bytes[index] != 0x0A { advance() }
                }
            case UInt8(ascii: "["):
                if !skipLongBracket() { advance() }
            default:
                advance()
            }
        }
        return nil
    }

    /// Skips `[[…]]` or `[=*[…]=*]` at the current byte; false when none starts here.
    private mutating func skipLongBracket() -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return false }
        var probe = index + 1
        var level = 0
        while probe < bytes.count, bytes[probe] == UInt8(ascii: "=") { level += 1; probe += 1 }
        guard probe < bytes.count, bytes[probe] == UInt8(ascii: "[") else { return false }
        let closing = [UInt8(ascii: "]")] + Array(repeating: UInt8(ascii: "="), count: level) + [UInt8(ascii: "]")]
        while index <= probe { advance() }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "]"), bytes[index...].starts(with: closing) {
                for _ in closing { advance() }
                return true
            }
            advance()
        }
        return true
    }

    private mutating func word() -> NginxToken {
        let startLine = line, startColumn = column
        let start = index
        var escaped = false
        var inVariable = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "{"), inVariable {
                advance()
                continue
            }
            inVariable = false
            if Self.endsWord[Int(byte)] { break }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                escaped = true
                advance()
            } else if byte == UInt8(ascii: "$") {
                inVariable = true
            }
            advance()
        }
        // Most words have no backslash: decode them straight from the file's bytes.
        let value = escaped ? Self.unescape(Array(bytes[start..<index])) : String(decoding: bytes[start..<index], as: UTF8.self)
        return NginxToken(kind: .word(value, quoted: false), line: startLine, column: startColumn)
    }

    /// A quoted word; nil when the file ends before the closing quote.
    private mutating func quoted(_ quote: UInt8) -> NginxToken? {
        let startLine = line, startColumn = column
        advance()
        var value: [UInt8] = []
        while index < bytes.count, bytes[index] != quote {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                value.append(bytes[index])
                advance()
            }
            value.append(bytes[index])
            advance()
        }
        guard index < bytes.count else { return nil }
        advance()
        if index < bytes.count {
            let next = bytes[index]
            if !Self.isSpace(next), next != UInt8(ascii: ";"), next != UInt8(ascii: "{"), next != UInt8(ascii: ")") {
                diagnostics.append(.error("nginx.syntax", "unexpected \"\(Character(Unicode.Scalar(next)))\" after a quoted string; nginx needs a space here", at: SourceLocation(path: path, line: line, column: column)))
            }
        }
        return NginxToken(kind: .word(Self.unescape(value), quoted: true), line: startLine, column: startColumn)
    }

    /// nginx turns `\"`, `\'` and `\\` into the character and `\t`, `\r`, `\n` into controls;
    /// any other backslash stays.
    static func unescape(_ bytes: [UInt8]) -> String {
        guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                switch bytes[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"):
                    out.append(bytes[index + 1]); index += 2; continue
                case UInt8(ascii: "t"): out.append(0x09); index += 2; continue
                case UInt8(ascii: "r"): out.append(0x0D); index += 2; continue
                case UInt8(ascii: "n"): out.append(0x0A); index += 2; continue
                default: break
                }
            }
            out.append(bytes[index])
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    var endLine: Int { line }
    var endColumn: Int { column }
}
