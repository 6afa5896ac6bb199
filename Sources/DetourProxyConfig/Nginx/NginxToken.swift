import DetourDiagnostics

/// A lexical unit of an nginx configuration.
struct NginxToken: Equatable {
    enum Kind: Equatable {
        case word(String, quoted: Bool)
        case semicolon
        case blockStart
        case blockEnd
    }

    var kind: Kind
    var line: Int
    var column: Int
}
