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
    /// Where the outermost `import` that brought the word is (file -1: written in place).
    /// Packed beside the others so a word stays 48 bytes.
    private var importColumn: UInt16 = 0
    private var storedSnippet: Int32 = -1
    private var importFile: Int32 = -1
    private var importLine: Int32 = 0

    /// The parser's number for the snippet this token was copied from, for import cycles.
    var snippet: Int32? {
        get { storedSnippet < 0 ? nil : storedSnippet }
        set { storedSnippet = newValue ?? -1 }
    }

    /// Records the `import` that brought the word, unless an outer one already brought the
    /// import itself (`site` is then that one's word).
    mutating func imported(by site: CaddyToken) {
        guard importFile < 0 else { return }
        if site.importFile >= 0 {
            (importFile, importLine, importColumn) = (site.importFile, site.importLine, site.importColumn)
        } else {
            (importFile, importLine, importColumn) = (site.storedFile, site.storedLine, UInt16(clamping: site.storedColumn))
        }
    }

    /// Where the site uses the word: the outermost `import` that brought it, else the word.
    func placeOfUse(in files: SourceFiles) -> SourceLocation {
        guard importFile >= 0 else { return location(in: files) }
        return SourceLocation(path: files[Int(importFile)], line: Int(importLine), column: Int(importColumn))
    }

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

    /// Whether `later` is the next word on this word's last line, as Caddy's dispenser reads
    /// a directive's arguments: same file, same line. A snippet's words spliced in after a
    /// later line start a line of their own.
    func isFollowedOnItsLine(by later: CaddyToken) -> Bool {
        file == later.file && line + lineBreaks == later.line
    }

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
