/// Caddy 2.6's Caddyfile lexer: words split on white space; `"…"` where only `\"` is an escape
/// and line breaks are kept; `` `…` `` raw; `#` at the start of a word comments out the rest of
/// the line; `\` before a line break joins the lines. An unterminated quote runs to the end of
/// the file and still makes a word, as in Caddy.
enum CaddyLexer {
    static func tokens(_ input: [UInt8], file: Int) -> [CaddyToken] {
        var bytes = input[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var tokens: [CaddyToken] = []
        var value: [UInt8] = []
        var comment = false, quoted = false, backticks = false, escaped = false
        var line = 1, skippedLines = 0, column = 0
        var start = (line: 1, column: 1)
        func make(_ quote: UInt8) {
            tokens.append(CaddyToken(text: String(decoding: value, as: UTF8.self), file: file, line: start.line, column: start.column, quote: quote))
            value.removeAll(keepingCapacity: true)
            quoted = false
            backticks = false
        }
        for byte in bytes {
            column += 1
            if !escaped, !backticks, byte == UInt8(ascii: "\\") {
                escaped = true
                continue
            }
            if quoted || backticks {
                if quoted, escaped {
                    // All is literal in quotes but the quote itself.
                    if byte != UInt8(ascii: "\"") { value.append(UInt8(ascii: "\\")) }
                    escaped = false
                } else if quoted, byte == UInt8(ascii: "\"") {
                    make(UInt8(ascii: "\""))
                    continue
                } else if backticks, byte == UInt8(ascii: "`") {
                    make(UInt8(ascii: "`"))
                    continue
                }
                if byte == UInt8(ascii: "\n") {
                    line += 1 + skippedLines
                    skippedLines = 0
                    column = 0
                }
                value.append(byte)
                continue
            }
            if isSpace(byte) {
                if byte == UInt8(ascii: "\r") { continue }
                if byte == UInt8(ascii: "\n") {
                    if escaped {
                        skippedLines += 1
                        escaped = false
                    } else {
                        line += 1 + skippedLines
                        skippedLines = 0
                    }
                    column = 0
                    comment = false
                }
                if !value.isEmpty { make(0) }
                continue
            }
            if byte == UInt8(ascii: "#"), value.isEmpty { comment = true }
            if comment { continue }
            if value.isEmpty {
                start = (line, column - (escaped ? 1 : 0))
                if byte == UInt8(ascii: "\"") { quoted = true; continue }
                if byte == UInt8(ascii: "`") { backticks = true; continue }
            }
            if escaped {
                value.append(UInt8(ascii: "\\"))
                escaped = false
            }
            value.append(byte)
        }
        if !value.isEmpty { make(0) }
        return tokens
    }

    /// Go's unicode.IsSpace for the bytes that can stand alone in UTF-8.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}
