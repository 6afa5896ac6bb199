import DetourDiagnostics

/// One directive as stored: where its words are, and where its block ends. Plain numbers, so
/// a whole configuration is a few flat arrays that copy and free without reference counting.
struct NginxEntry: Sendable {
    /// The file (an index into the configuration's files) whose words these are.
    var file: Int32
    /// The name is the first word; the arguments follow it.
    var firstWord: Int32
    var wordCount: Int32
    /// The index after this directive's block (after the directive itself when it has none).
    var end: Int32
    var name: NginxDirectiveName?
    var isBlock: Bool
    /// Where a block's `}` is (0 while unknown): nginx reports what it checks at a block's
    /// end there.
    var closeLine: Int32 = 0
    var closeColumn: Int32 = 0
}

/// One configuration file as read: its bytes, its words, and its directives in document order
/// (a block's contents right after it), with its own `include` lines not yet expanded.
struct NginxParsedFile: Sendable {
    var displayPath: String
    var bytes: [UInt8]
    var words: [NginxWord] = []
    var entries: [NginxEntry] = []
    var diagnostics: [Diagnostic] = []

    init(displayPath: String, bytes: [UInt8]) {
        self.displayPath = displayPath
        self.bytes = bytes
    }

    func value(of word: NginxWord) -> String {
        bytes.withUnsafeBufferPointer { all in
            NginxLexer.value(UnsafeBufferPointer(rebasing: all[word.byteRange]), hasEscapes: word.hasEscapes)
        }
    }

    func location(of word: NginxWord) -> SourceLocation {
        SourceLocation(path: displayPath, line: Int(word.line), column: Int(word.column))
    }
}
