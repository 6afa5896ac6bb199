import DetourDiagnostics

/// A file a proxy sends for a status, as the line that names it writes it.
struct HAProxyPage: Sendable {
    enum Kind: Sendable {
        /// A whole HTTP response, status line and headers included (`errorfile`, `http-error
        /// … errorfile`, `http-response return … errorfile`): HAProxy sends it as it is.
        case response
        /// A body, HAProxy writes the status line and headers (`file`, `lf-file`).
        case body
    }

    var code: Int
    /// The path as written, and where.
    var path: String
    var pathLocation: SourceLocation
    var kind: Kind
    /// `errorfile`, `http-error`, `http-response return`, `http-request return`, `errorfiles <name>`.
    var directive: String
    var line: SourceLocation
}
