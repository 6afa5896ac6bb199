import DetourDiagnostics

/// One configuration file as read: how findings name it, its bytes, and its words as spans
/// of those bytes.
public struct SourceBuffer: Sendable {
    public var displayPath: String
    public var bytes: [UInt8]
    public var words: [SourceWord] = []

    public init(displayPath: String, bytes: [UInt8]) {
        self.displayPath = displayPath
        self.bytes = bytes
    }

    public func location(of word: SourceWord) -> SourceLocation {
        SourceLocation(path: displayPath, line: Int(word.line), column: Int(word.column))
    }
}
