import DetourDiagnostics

/// One word of VCL as varnishd's compiler reads it: a name (dots and dashes included:
/// `req.http.X-Detour-Page`), a number, a string with its quotes taken off, inline C, or an
/// operator.
struct VCLToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case name, number, string, inlineC, symbol
    }

    var kind: Kind
    var text: String
    var location: SourceLocation

    func isSymbol(_ symbol: String) -> Bool { kind == .symbol && text == symbol }
    func isName(_ name: String) -> Bool { kind == .name && text == name }

    /// How a finding quotes it.
    var quoted: String {
        switch kind {
        case .string: return "\"\(text)\""
        case .inlineC: return "C{…}C"
        default: return "'\(text)'"
        }
    }

    /// As VCL writes it.
    var written: String {
        switch kind {
        case .string: return text.contains("\"") ? "{\"\(text)\"}" : "\"\(text)\""
        case .inlineC: return "C{\(text)}C"
        default: return text
        }
    }
}
