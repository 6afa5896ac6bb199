/// Caddy's Caddyfile lexer: words split on white space; `"…"` where only `\"` is an escape
/// and line breaks are kept; `` `…` `` raw; `#` at the start of a word comments out the rest of
/// the line; `\` before a line break joins the lines. An unterminated quote runs to the end of
/// the file and still makes a word, as in Caddy. From Caddy 2.7, `<<MARKER` at the end of a
/// line opens a heredoc that runs to the marker, its indentation taken off every line.
enum CaddyLexer {
    /// A heredoc Caddy refuses, in its words, at the line it names.
    struct Failure: Error, Equatable {
        var message: String
        var line: Int
    }

    /// `heredocs` is asked only when a word starts with `<<` (it may have to ask Caddy).
    static func tokens(_ input: [UInt8], file: Int, heredocs: () -> Bool = { false }) -> (tokens: [CaddyToken], failure: Failure?) {
        var bytes = input[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var tokens: [CaddyToken] = []
        var value: [UInt8] = []
        var comment = false
        var quoted = false
        var backticks = false
        var escaped = false
        /// The marker while inside a heredoc; a `\<` start that is not one.
        var marker: [UInt8]?
        var notHeredoc = false
        var line = 1
        var skippedLines = 0
        var column = 0
        var start = (line: 1, column: 1)
        func make(_ quote: UInt8) {
            tokens.append(CaddyToken(text: String(decoding: value, as: UTF8.self), file: file, line: start.line, column: start.column, quote: quote))
            value.removeAll(keepingCapacity: true)
            quoted = false
            backticks = false
            notHeredoc = false
        }
        for byte in bytes {
            column += 1
            if let end = marker {
                value.append(byte)
                if byte == UInt8(ascii: "\n") {
                    skippedLines += 1
                    column = 0
                }
                guard value.count >= end.count, value.suffix(end.count).elementsEqual(end) else { continue }
                switch heredocText(value, marker: end, firstLine: line) {
                case .failure(let failure): return (tokens, failure)
                case .success(let text): value = text
                }
                line += skippedLines
                skippedLines = 0
                marker = nil
                make(UInt8(ascii: "<"))
                continue
            }
            if !quoted, !backticks, !notHeredoc, value.count > 1, value[0] == UInt8(ascii: "<"), value[1] == UInt8(ascii: "<"), heredocs() {
                if byte == UInt8(ascii: " ") {
                    make(0)
                    continue
                }
                if byte == UInt8(ascii: "\r") { continue }
                if byte == UInt8(ascii: "\n") {
                    if let failure = heredocStartFailure(value, line: line) { return (tokens, failure) }
                    marker = Array(value.dropFirst(2))
                    value.removeAll(keepingCapacity: true)
                    skippedLines += 1
                    column = 0
                    continue
                }
                value.append(byte)
                continue
            }
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
                if byte == UInt8(ascii: "\"") {
                    quoted = true
                    continue
                }
                if byte == UInt8(ascii: "`") {
                    backticks = true
                    continue
                }
            }
            if escaped {
                // `\<` keeps a word from opening a heredoc where there are heredocs.
                if byte == UInt8(ascii: "<"), heredocs() {
                    notHeredoc = true
                } else {
                    value.append(UInt8(ascii: "\\"))
                }
                escaped = false
            }
            value.append(byte)
        }
        if !value.isEmpty {
            if let end = marker {
                let name = String(decoding: end, as: UTF8.self)
                return (
                    tokens,
                    Failure(message: "incomplete heredoc <<\(name) on line #\(line + skippedLines), expected ending marker \(name)", line: line + skippedLines)
                )
            }
            make(0)
        }
        return (tokens, nil)
    }

    /// Why `<<…` before a line break opens no heredoc, or nil when it opens one.
    private static func heredocStartFailure(_ value: [UInt8], line: Int) -> Failure? {
        if value.count == 2 {
            return Failure(
                message: "missing opening heredoc marker on line #\(line); must contain only alphanumeric characters, dashes and underscores; got empty string",
                line: line)
        }
        if value[2] == UInt8(ascii: "<") {
            return Failure(message: "too many '<' for heredoc on line #\(line); only use two, for example <<END", line: line)
        }
        let marker = value.dropFirst(2)
        guard marker.allSatisfy({ isMarkerByte($0) }) else {
            return Failure(
                message:
                    "heredoc marker on line #\(line) must contain only alphanumeric characters, dashes and underscores; got '\(String(decoding: marker, as: UTF8.self))'",
                line: line)
        }
        return nil
    }

    /// The heredoc's text: every line without the white space before the closing marker, which
    /// each line must start with.
    private static func heredocText(_ value: [UInt8], marker: [UInt8], firstLine: Int) -> Result<[UInt8], Failure> {
        let lastBreak = value.lastIndex(of: UInt8(ascii: "\n"))
        let body = lastBreak.map { value[...$0] } ?? []
        let padding = value[(lastBreak.map { $0 + 1 } ?? 0)..<(value.count - marker.count)]
        var text: [UInt8] = []
        for (number, lineText) in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().enumerated() {
            if lineText.isEmpty || lineText.elementsEqual([UInt8(ascii: "\r")]) {
                text.append(UInt8(ascii: "\n"))
                continue
            }
            guard lineText.starts(with: padding) else {
                var shown = lineText[...]
                while let last = shown.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") { shown = shown.dropLast() }
                let name = String(decoding: marker, as: UTF8.self)
                let message =
                    "mismatched leading whitespace in heredoc <<\(name) on line #\(firstLine + number + 1) [\(String(decoding: shown, as: UTF8.self))], expected whitespace [\(String(decoding: padding, as: UTF8.self))] to match the closing marker"
                return .failure(Failure(message: message, line: firstLine + number + 1))
            }
            text += lineText.dropFirst(padding.count).filter { $0 != UInt8(ascii: "\r") }
            text.append(UInt8(ascii: "\n"))
        }
        if text.last == UInt8(ascii: "\n") { text.removeLast() }
        return .success(text)
    }

    private static func isMarkerByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// Go's unicode.IsSpace for the bytes that can stand alone in UTF-8.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}
