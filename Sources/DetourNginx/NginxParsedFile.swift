import DetourDiagnostics
import DetourProxyCore

/// nginx's instance of the core's flat store: a directive's entry carries its name as a
/// `NginxDirectiveName`.
typealias NginxEntry = FlatEntry<NginxDirectiveName>

/// One configuration file as read: its bytes and words (`source`), and its directives in
/// document order (a block's contents right after it), with its own `include` lines not yet
/// expanded.
struct NginxParsedFile: Sendable {
    var source: SourceBuffer
    var entries: [NginxEntry] = []
    var diagnostics: [Diagnostic] = []

    init(displayPath: String, bytes: [UInt8]) {
        source = SourceBuffer(displayPath: displayPath, bytes: bytes)
    }

    var displayPath: String { source.displayPath }
    var bytes: [UInt8] { source.bytes }
    var words: [SourceWord] { source.words }

    func value(of word: SourceWord) -> String {
        source.bytes.withUnsafeBufferPointer { all in
            NginxLexer.value(UnsafeBufferPointer(rebasing: all[word.byteRange]), hasEscapes: word.hasEscapes)
        }
    }

    func location(of word: SourceWord) -> SourceLocation { source.location(of: word) }
}
