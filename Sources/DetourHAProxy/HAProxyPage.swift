import DetourDiagnostics

/// A file a proxy sends for a status, as the line that names it writes it. A class: every
/// section that inherits a defaults' page holds it, and the rules read it thousands of times
/// over, where a struct would copy its strings at each read.
final class HAProxyPage: Sendable {
    enum Kind: Sendable {
        /// A whole HTTP response, status line and headers included (`errorfile`, `http-error
        /// … errorfile`, `http-response return … errorfile`): HAProxy sends it as it is.
        case response
        /// A body, HAProxy writes the status line and headers (`file`, `lf-file`).
        case body
    }

    let code: Int
    /// The path as written, and where.
    let path: String
    let pathLocation: SourceLocation
    let kind: Kind
    /// `errorfile`, `http-error`, `http-response return`, `http-request return`, `errorfiles <name>`.
    let directive: String
    let line: SourceLocation

    init(code: Int, path: String, pathLocation: SourceLocation, kind: Kind, directive: String, line: SourceLocation) {
        (self.code, self.path, self.pathLocation, self.kind, self.directive, self.line) = (code, path, pathLocation, kind, directive, line)
    }
}
