/// A word of a configuration file as a span of its bytes (`SourceBuffer`): values are decoded
/// only when a model asks for them, so the many words nobody reads cost no strings. How a
/// value is decoded (quotes, escapes) is the dialect's.
public struct SourceWord: Sendable {
    /// Byte offset of the value (inside the quotes for a quoted word) and its length.
    public var start: Int32
    public var length: Int32
    public var line: Int32
    public var column: Int32
    /// Written in quotes, which keeps separators literal.
    public var isQuoted: Bool
    /// Holds an escape, so the value needs decoding.
    public var hasEscapes: Bool

    public init(start: Int32, length: Int32, line: Int32, column: Int32, isQuoted: Bool, hasEscapes: Bool) {
        self.start = start
        self.length = length
        self.line = line
        self.column = column
        self.isQuoted = isQuoted
        self.hasEscapes = hasEscapes
    }

    public var byteRange: Range<Int> { Int(start)..<Int(start + length) }
}
