import DetourDiagnostics
import DetourProxyCore

/// nginx's lexical rules, as `ngx_conf_read_token` applies them: words end at white space,
/// `;` or `{` (so `foo}` is one word); `#` starts a comment only where a word could start;
/// quotes keep everything literal and must be followed by white space, `;`, `{` or `)`;
/// `${name}` does not open a block; a backslash takes the next byte literally. Works on bytes,
/// hands out one token at a time and never stops early: an error is recorded and lexing goes on.
struct NginxLexer {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let path: String
    private var index = 0
    private(set) var line: Int32 = 1
    private(set) var column: Int32 = 1
    /// The text ended inside a quoted string.
    private(set) var unterminatedQuote = false
    private(set) var diagnostics: [Diagnostic] = []

    /// `bytes` must stay valid while the lexer is used.
    init(_ bytes: UnsafeBufferPointer<UInt8>, path: String) {
        self.bytes = bytes
        self.path = path
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The next token; nil at the end of the text (or of an unterminated quote).
    mutating func next() -> NginxToken? {
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x09, 0x0D:
                index += 1
                column &+= 1
            case 0x0A:
                index += 1
                line &+= 1
                column = 1
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != 0x0A { advance() }
            case UInt8(ascii: ";"):
                defer { advance() }
                return .semicolon(line: line, column: column)
            case UInt8(ascii: "{"):
                defer { advance() }
                return .blockStart(line: line, column: column)
            case UInt8(ascii: "}"):
                defer { advance() }
                return .blockEnd(line: line, column: column)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                return quoted(byte).map(NginxToken.word)
            default:
                return .word(word())
            }
        }
        return nil
    }

    /// The bytes of a word's span, valid while the lexer's text is.
    func bytes(of word: SourceWord) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[word.byteRange])
    }

    private mutating func advance() {
        if bytes[index] == 0x0A {
            line &+= 1
            column = 1
        } else if bytes[index] & 0xC0 != 0x80 {
            column &+= 1
        }
        index += 1
    }

    /// Skips a Lua body (after `content_by_lua_block {`) up to its closing brace, past Lua
    /// strings (`'…'`, `"…"`, `[[…]]`, `[==[…]==]`) and comments (`-- …`, `--[[…]]`);
    /// returns the closing brace, or nil at the end of the file.
    mutating func skipLua() -> NginxToken? {
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                depth += 1
                advance()
            case UInt8(ascii: "}"):
                if depth == 0 {
                    defer { advance() }
                    return .blockEnd(line: line, column: column)
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
                advance()
                advance()
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
        while probe < bytes.count, bytes[probe] == UInt8(ascii: "=") {
            level += 1
            probe += 1
        }
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

    private mutating func word() -> SourceWord {
        let startLine = line
        let startColumn = column
        let start = index
        var escaped = false
        var inVariable = false
        scan: while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                // `${name}`: the brace belongs to the variable, and nginx stays in it.
                guard inVariable else { break scan }
            case 0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: ";"):
                break scan
            case UInt8(ascii: "\\"):
                inVariable = false
                if index + 1 < bytes.count {
                    escaped = true
                    advance()
                }
            case let byte:
                // The common case, inline: no newline can be here.
                inVariable = byte == UInt8(ascii: "$")
                if byte & 0xC0 != 0x80 { column &+= 1 }
                index += 1
                continue scan
            }
            advance()
        }
        return SourceWord(start: Int32(start), length: Int32(index - start), line: startLine, column: startColumn, isQuoted: false, hasEscapes: escaped)
    }

    /// A quoted word; nil when the text ends before the closing quote.
    private mutating func quoted(_ quote: UInt8) -> SourceWord? {
        let startLine = line
        let startColumn = column
        advance()
        let start = index
        var escaped = false
        while index < bytes.count, bytes[index] != quote {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                escaped = true
                advance()
            }
            advance()
        }
        guard index < bytes.count else {
            unterminatedQuote = true
            return nil
        }
        let end = index
        advance()
        if index < bytes.count {
            let next = bytes[index]
            if !Self.isSpace(next), next != UInt8(ascii: ";"), next != UInt8(ascii: "{"), next != UInt8(ascii: ")"),
                diagnostics.count < NginxParser.maximumErrors
            {
                diagnostics.append(
                    .error(
                        NginxRules.syntax.id, "unexpected \"\(Character(Unicode.Scalar(next)))\" after a quoted string; nginx needs a space here",
                        at: SourceLocation(path: path, line: Int(line), column: Int(column))))
            }
        }
        return SourceWord(start: Int32(start), length: Int32(end - start), line: startLine, column: startColumn, isQuoted: true, hasEscapes: escaped)
    }

    /// A word's value: nginx turns `\"`, `\'` and `\\` into the character and `\t`, `\r`, `\n`
    /// into controls; any other backslash stays.
    static func value(_ bytes: UnsafeBufferPointer<UInt8>, hasEscapes: Bool) -> String {
        guard hasEscapes else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                switch bytes[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"):
                    out.append(bytes[index + 1])
                    index += 2
                    continue
                case UInt8(ascii: "t"):
                    out.append(0x09)
                    index += 2
                    continue
                case UInt8(ascii: "r"):
                    out.append(0x0D)
                    index += 2
                    continue
                case UInt8(ascii: "n"):
                    out.append(0x0A)
                    index += 2
                    continue
                default: break
                }
            }
            out.append(bytes[index])
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
