/// A word of a configuration file as a span of its bytes: values are decoded only when the
/// model asks for them, so the many directives nobody reads cost no strings.
struct NginxWord: Sendable {
    /// Byte offset of the value (inside the quotes for a quoted word) and its length.
    var start: Int32
    var length: Int32
    var line: Int32
    var column: Int32
    /// Written in quotes, which keeps `{`, `;` and spaces literal.
    var isQuoted: Bool
    /// Holds a backslash, so the value needs unescaping.
    var hasEscapes: Bool

    var byteRange: Range<Int> { Int(start)..<Int(start + length) }
}

/// A lexical unit of an nginx configuration.
enum NginxToken {
    case word(NginxWord)
    case semicolon(line: Int32, column: Int32)
    case blockStart(line: Int32, column: Int32)
    case blockEnd(line: Int32, column: Int32)
}
