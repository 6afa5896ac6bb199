import DetourDiagnostics
import DetourProxyCore

/// A page visitors are redirected to (`errorloc`, `http-request redirect location`) is fetched
/// by a second request, which meets the frontend's `http-request deny`/`auth` rules again, and
/// those of the backend its path is routed to. A rule that the page's path brings into play
/// refuses it: visitors who got past it with their first request get a 401 or 403 instead of
/// the page. (Pages HAProxy sends itself, `errorfile` and `return`, are final: no rule runs on
/// them.)
struct HAProxyProtectedPageRule: HAProxyRule {
    static let about = HAProxyRules.protected

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for proxy in model.proxies where proxy.isHTTPEntry {
            var router = HAProxyPageRouter(proxy, in: model)
            for sending in Self.redirectsByPage(of: proxy, in: model) {
                let redirect = sending[0]
                // The frontend's rules first, then those of the backend the page's path is routed to.
                var stages: [(proxy: HAProxyProxy, route: HAProxyPageRoute?)] = [(proxy, nil)]
                if let route = router.route(redirect.path), !route.backend.isSection(proxy) {
                    stages.append((route.backend, route))
                }
                for (guarding, route) in stages {
                    for guardRule in guarding.settings.requestGuards {
                        let (outcome, onPath, _) = HAProxyPathCondition.evaluate(guardRule.condition, path: redirect.path, acls: guarding.settings.acls)
                        guard outcome != .no, onPath else { continue }
                        var notes = [Diagnostic.Note("the redirect is here", at: redirect.line)]
                        if sending.count > 1 { notes.append(.init("and \(sending.count - 1) more lines send visitors there")) }
                        if let route { notes.append(.init("the page's own request is routed there from \(proxy.kind) '\(proxy.name)'", at: route.line)) }
                        notes.append(
                            Self.fix(
                                "leave the pages out of the rule (for example 'unless { path_beg \(redirect.folder) }'), or send them with errorfile, which no rule runs on"
                            ))
                        found.append(
                            .error(
                                Self.id,
                                "http-request \(guardRule.action) in \(guarding.kind) '\(guarding.name)' applies to '\(redirect.path)', where \(redirect.directive) sends visitors: they get \(guardRule.status), not the page",
                                at: guardRule.line, notes: notes))
                    }
                }
            }
        }
        return found
    }

    /// The local pages visitors of `proxy` are redirected to, each with the lines that send
    /// them there (once each, in order): a page is judged once, however many backends use it.
    private static func redirectsByPage(of proxy: HAProxyProxy, in model: HAProxyModel) -> [[HAProxyRedirect]] {
        let backends = HAProxyCoverage.backends(of: proxy, in: model)
        let all = proxy.settings.pageRedirects + ([proxy] + backends).flatMap { $0.settings.errorRedirects.values.sorted { ($0.code ?? 0) < ($1.code ?? 0) } }
        var pages: [String: Int] = [:]
        var grouped: [[HAProxyRedirect]] = []
        var seenLines = Set<SourceLocation>()
        for redirect in all where redirect.isLocal && seenLines.insert(redirect.line).inserted {
            if let index = pages[redirect.path] {
                grouped[index].append(redirect)
            } else {
                pages[redirect.path] = grouped.count
                grouped.append([redirect])
            }
        }
        return grouped
    }
}
