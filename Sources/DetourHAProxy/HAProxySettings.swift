import DetourDiagnostics

/// What a `defaults` section passes on and a proxy adds to: its pages by status, how its
/// requests are routed, and what else the rules ask about.
struct HAProxySettings: Sendable {
    var mode = "tcp"
    /// `errorfile`/`errorfiles`: HAProxy's own errors.
    var errorFiles: [Int: HAProxyPage] = [:]
    /// `errorloc`, `errorloc302`, `errorloc303`: a redirect for HAProxy's own error. It shares
    /// its place with `errorfile`: the later line wins.
    var errorRedirects: [Int: HAProxyRedirect] = [:]
    /// `http-request redirect location /page`: visitors sent to a page on the same site.
    var pageRedirects: [HAProxyRedirect] = []
    /// `http-request deny|auth|tarpit`, in order.
    var requestGuards: [HAProxyRequestGuard] = []
    /// `acl NAME fetch values…` lines by name: several lines of one name are alternatives.
    var acls: [String: [[String]]] = [:]
    /// `http-error status N …`: HAProxy's own errors, in place of `errorfile`.
    var httpErrors: [Int: HAProxyPage] = [:]
    /// `http-response return status N … if { status N }`: the backend's own errors replaced.
    var responseReturns: [Int: HAProxyPage] = [:]
    /// `http-response return` rules by the statuses they answer, pages or not.
    var replacedStatuses: Set<Int> = []
    /// `http-response set-status N` without a condition: every answer leaves with N.
    var rewrittenStatus: Int?
    /// The first `http-after-response` rule: it rewrites error pages too.
    var afterResponse: SourceLocation?
    var defaultBackend: HAProxyRoute?
    /// `use_backend` lines, in order: the first that applies wins.
    var routes: [HAProxyRoute] = []
    var servers = 0
    /// `default-server`'s TLS words: the servers after it start from them.
    var defaultServer = HAProxyServerTLS()
    /// What answers every request before any backend does, as the coverage table shows it: an
    /// `http-request redirect` or `return` without a condition, with no deny, auth or tarpit
    /// rule before it, or `stats uri /` (the stats page takes every path).
    var answersEveryRequest: String?
    /// `stats auth` or `stats http-request auth`: the stats page asks for credentials, with
    /// HAProxy's 401, whose page is the errorfile in effect.
    var statsChallenge = false

    /// Whether a server's own `code` leaves as it came: no `http-response return` answers it,
    /// and no `set-status` gives every answer another status.
    func passes(_ code: Int) -> Bool { !replacedStatuses.contains(code) && (rewrittenStatus == nil || rewrittenStatus == code) }

    /// The page for HAProxy's own `code`: `http-error` first, as HAProxy tries it first.
    func page(for code: Int) -> HAProxyPage? { httpErrors[code] ?? errorFiles[code] }

    /// Whether a page or an `errorloc` answers HAProxy's own `code` here.
    func answers(_ code: Int) -> Bool { httpErrors[code] != nil || errorFiles[code] != nil || errorRedirects[code] != nil }

    /// What answers HAProxy's own `code`, as the coverage table shows it: the page's path, or
    /// where an `errorloc` sends visitors.
    func answer(for code: Int) -> String? {
        if let page = page(for: code) { return page.path }
        return errorRedirects[code].map { "\($0.status) to \($0.target)" }
    }
}
