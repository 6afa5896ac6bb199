import DetourDiagnostics
import DetourProxyCore

/// `errorloc` answers an error with a redirect to the page: the status is lost, and the page's
/// own request comes back through the frontend. On HAProxy 2.6, a 503 page path that reaches
/// the same dead backend is redirected to itself, again and again.
struct HAProxyErrorlocRedirectRule: HAProxyRule {
    static let about = RuleDescription(
        "haproxy.errorloc-redirect", .warning,
        summary: "errorloc, errorloc302 or errorloc303 answers an error with a redirect to the page (haproxy -c passes it)",
        consequence: "a 302/303 instead of the error: crawlers and monitors see a move; a page path that reaches the failing backend redirects to itself"
    )

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        model.redirects.compactMap { redirect in
            guard let code = redirect.code else { return nil }
            let loop = redirect.isLocal ? [.init("the page's own request comes back through the frontend: where it reaches the backend that failed, visitors are sent to the page again and again")] : [Diagnostic.Note]()
            return .warning(Self.id, "\(redirect.directive) answers \(code) with a \(redirect.status) to '\(redirect.target)': visitors, crawlers and monitors get a redirect, not \(code)", at: redirect.line, notes: loop + [
                Self.fix("use 'errorfile \(code) <install path>/errors/\(code).http' (detour's snippets/haproxy.cfg): the page goes out with its status, from memory"),
            ])
        }
    }
}
