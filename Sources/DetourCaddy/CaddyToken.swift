import DetourDiagnostics
import DetourProxyCore

/// One word of a Caddyfile, as Caddy's lexer cuts it: quotes and backticks removed, where it
/// started, and the snippet it was copied from when an `import` brought it. Kept small (one
/// reference, 32-bit positions): a Caddyfile of thousands of sites is millions of these, copied
/// as imports splice them.
struct CaddyToken: Sendable, Equatable {
    var text: String {
        didSet { textLineBreaks = Self.lineBreaks(in: text) }
    }
    private var storedFile: Int32
    private var storedLine: Int32
    private var storedColumn: Int32
    /// Counted once: the parser asks for every word whether the next starts a line.
    private var textLineBreaks: Int32
    /// `"`, `` ` `` or `<` (a heredoc) when the word was quoted, else 0: a quoted `{` opens no block.
    var quote: UInt8
    /// The parser's number for the snippet this token was copied from, for import cycles.
    var snippet: Int32?

    init(text: String, file: Int, line: Int, column: Int, quote: UInt8 = 0) {
        self.text = text
        storedFile = Int32(truncatingIfNeeded: file)
        storedLine = Int32(truncatingIfNeeded: line)
        storedColumn = Int32(truncatingIfNeeded: column)
        self.quote = quote
        textLineBreaks = Self.lineBreaks(in: text)
    }

    /// Index of its file in the loaded configuration's files.
    var file: Int { Int(storedFile) }
    var line: Int { Int(storedLine) }
    var column: Int { Int(storedColumn) }

    var isQuoted: Bool { quote != 0 }

    /// How many line breaks the word spans (a quoted word may span lines; a heredoc's opening
    /// line and closing marker are not in its text).
    var lineBreaks: Int { Int(textLineBreaks) + (quote == UInt8(ascii: "<") ? 2 : 0) }

    /// Whether `later` starts a line after this word's last one (another file counts).
    func endsBeforeLine(of later: CaddyToken) -> Bool {
        file != later.file || line + lineBreaks < later.line
    }

    private static func lineBreaks(in text: String) -> Int32 {
        text.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }
}

extension CaddyToken {
    /// Where the word is, its file named as `files` names it.
    func location(in files: SourceFiles) -> SourceLocation {
        SourceLocation(path: files[file], line: line, column: column)
    }
}
