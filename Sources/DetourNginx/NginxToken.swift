import DetourProxyCore

/// A lexical unit of an nginx configuration.
enum NginxToken {
    case word(SourceWord)
    case semicolon(line: Int32, column: Int32)
    case blockStart(line: Int32, column: Int32)
    case blockEnd(line: Int32, column: Int32)
}
