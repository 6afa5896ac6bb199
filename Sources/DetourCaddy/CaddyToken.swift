/// One word of a Caddyfile, as Caddy's lexer cuts it: quotes and backticks removed, where it
/// started, and the snippet it was copied from when an `import` brought it.
struct CaddyToken: Sendable, Equatable {
    var text: String
    /// Index of its file in the loaded configuration's files.
    var file: Int
    var line: Int
    var column: Int
    /// `"` or `` ` `` when the word was quoted, else 0: a quoted `{` opens no block.
    var quote: UInt8 = 0
    /// The snippet this token was copied from, for import cycles.
    var snippet: String?

    var isQuoted: Bool { quote != 0 }

    /// How many line breaks the word holds (a quoted word may span lines).
    var lineBreaks: Int { text.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } }

    /// Whether `later` starts a line after this word's last one (another file counts).
    func endsBeforeLine(of later: CaddyToken) -> Bool {
        file != later.file || line + lineBreaks < later.line
    }
}
