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

    /// Errors a failing backend gives every request, the page's own too.
    private static let failureCodes: Set<Int> = [502, 503, 504]

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        model.redirects.compactMap { redirect in
            guard let code = redirect.code else { return nil }
            let route = redirect.isLocal ? Self.routeNotes(redirect, code: code, in: model) : []
            return .warning(Self.id, "\(redirect.directive) answers \(code) with a \(redirect.status) to '\(redirect.target)': visitors, crawlers and monitors get a redirect, not \(code)", at: redirect.line, notes: route + [
                Self.fix("use 'errorfile \(code) <install path>/errors/\(code).http' (detour's snippets/haproxy.cfg): the page goes out with its status, from memory"),
            ])
        }
    }

    /// Where the page's own request goes from each frontend whose backends answer `code` with
    /// this redirect: back to the backend that failed (a loop), or elsewhere.
    private static func routeNotes(_ redirect: HAProxyRedirect, code: Int, in model: HAProxyModel) -> [Diagnostic.Note] {
        var loops: [Diagnostic.Note] = []
        var elsewhere: [Diagnostic.Note] = []
        var undecided = false
        for entry in model.proxies where entry.isHTTPEntry {
            for failing in HAProxyCoverage.backends(of: entry, in: model) {
                let answering = failing.settings.answer(for: code) != nil ? failing : entry
                guard answering.settings.errorRedirects[code]?.line == redirect.line else { continue }
                guard let route = HAProxyPageRoute.decide(redirect.path, from: entry, in: model) else {
                    undecided = true
                    continue
                }
                if route.backend.name == failing.name, failureCodes.contains(code) {
                    loops.append(.init("\(entry.kind) '\(entry.name)' routes '\(redirect.path)' back to \(failing.kind) '\(failing.name)', whose failure sent visitors there: while it fails, they are sent to the page again and again", at: route.line))
                } else if route.backend.name != failing.name {
                    elsewhere.append(.init("\(entry.kind) '\(entry.name)' routes the page's own request to \(route.backend.kind) '\(route.backend.name)', which must answer it", at: route.line))
                }
            }
        }
        var seen = Set<Diagnostic.Note>()
        let decided = (loops + elsewhere).filter { seen.insert($0).inserted }
        guard undecided || decided.isEmpty else { return decided }
        return decided + [.init("the page's own request comes back through the frontend: where it reaches the backend that failed, visitors are sent to the page again and again")]
    }
}
