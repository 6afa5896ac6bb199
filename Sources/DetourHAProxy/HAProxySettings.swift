import DetourDiagnostics

/// What a `defaults` section passes on and a proxy adds to: its pages by status, how its
/// requests are routed, and what else the rules ask about.
struct HAProxySettings: Sendable {
    var mode = "tcp"
    /// `errorfile`/`errorfiles`: HAProxy's own errors.
    var errorFiles: [Int: HAProxyPage] = [:]
    /// `http-error status N …`: HAProxy's own errors, in place of `errorfile`.
    var httpErrors: [Int: HAProxyPage] = [:]
    /// `http-response return status N … if { status N }`: the backend's own errors replaced.
    var responseReturns: [Int: HAProxyPage] = [:]
    /// `http-response return` rules by the statuses they answer, pages or not.
    var replacedStatuses: Set<Int> = []
    /// The first `http-after-response` rule: it rewrites error pages too.
    var afterResponse: SourceLocation?
    var defaultBackend: String?
    var useBackends: [String] = []
    var servers = 0

    /// The page for HAProxy's own `code`: `http-error` first, as HAProxy tries it first.
    func page(for code: Int) -> HAProxyPage? { httpErrors[code] ?? errorFiles[code] }
}
