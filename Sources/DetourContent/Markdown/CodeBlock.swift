import DetourDiagnostics

/// A fenced code block of a Markdown file, for checks that read the configuration it quotes.
public struct CodeBlock: Sendable, Equatable {
    /// The info string's first word, lower-cased (`nginx`, `caddyfile`).
    public var language: String
    public var code: String
    /// Where the code's first line is; the column is the fence's, where the code's lines start.
    public var start: SourceLocation
}
