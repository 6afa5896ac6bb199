import DetourDiagnostics
import DetourProxyCore
import DetourSupport

/// One frontend or listen section that speaks HTTP, with its neutral model: which page answers
/// each code for its visitors (HAProxy looks in the backend first, then the frontend), and the
/// pages its visitors are redirected to, each with what refuses the page's own request. The
/// shared checks read the model; the rules word them in HAProxy's terms.
struct HAProxySite: Sendable {
    /// A page visitors are redirected to, as HAProxy routes its own request.
    struct Redirected: Sendable {
        /// The lines that send visitors there, once each, in order.
        var sending: [HAProxyRedirect]
        /// The `http-request deny|auth|tarpit` rules its request meets, in order: the
        /// frontend's, then those of the backend its path is routed to (with that route).
        var refusals: [(rule: HAProxyRequestGuard, in: HAProxyProxy, route: HAProxyPageRoute?)]
    }

    let proxy: HAProxyProxy
    let model: ErrorPageSite<Redirected>

    init(_ proxy: HAProxyProxy, in model: HAProxyModel, codes: [Int]) {
        self.proxy = proxy
        let coverage = SiteCoverage(
            name: proxy.kind == "listen" ? "\(proxy.name) (listen)" : proxy.name, location: proxy.location,
            answers: Self.answers(proxy, in: model, codes: codes))
        let routes = Self.redirected(proxy, in: model).map { redirected in
            ErrorPageRoute(
                origin: redirected, codes: Set(redirected.sending.compactMap(\.code)).sorted(), guards: redirected.refusals.map { .init(at: $0.rule.line) })
        }
        self.model = ErrorPageSite(coverage: coverage, routes: routes)
    }

    /// For each code, the page every route answers it with (the frontend's, or `backend pages`
    /// when each backend has its own), or nil when some route has none.
    private static func answers(_ proxy: HAProxyProxy, in model: HAProxyModel, codes: [Int]) -> [(code: Int, answer: String?)] {
        // No request reaches a backend, nor meets an error HAProxy's rules raise, but for the
        // stats page's own challenge.
        if let every = proxy.settings.answersEveryRequest {
            return codes.filter(HAProxyFacts.errorfileStatuses.contains).map { code in
                code == 401 && proxy.settings.statsChallenge ? (code, proxy.settings.answer(for: code)) : (code, "not needed: every request meets \(every)")
            }
        }
        let backends = model.backends(of: proxy)
        return codes.filter(HAProxyFacts.errorfileStatuses.contains).map { code in
            let own = proxy.settings.answer(for: code)
            guard backends.isEmpty ? own != nil : own != nil || backends.indices.allSatisfy({ backends[$0].settings.answers(code) }) else { return (code, nil) }
            guard !backends.isEmpty else { return (code, own) }
            // Backends that inherit one defaults section share its page: each page's answer
            // once, known by the page itself rather than by hashing its line.
            var pages = Set<ObjectIdentifier>()
            var redirectLines = Set<SourceLocation>()
            var shown = Set<String>()
            // Each backend's settings are read in place: a copy would count a dozen tables.
            for backend in backends {
                if let page = backend.settings.page(for: code) {
                    if pages.insert(ObjectIdentifier(page)).inserted { shown.insert(backend.settings.answer(for: code)!) }
                } else if let redirect = backend.settings.errorRedirects[code] {
                    if redirectLines.insert(redirect.line).inserted { shown.insert(backend.settings.answer(for: code)!) }
                } else {
                    shown.insert(own!)
                }
            }
            return (code, shown.count == 1 ? shown.first! : "\(shown.count) backend pages")
        }
    }

    /// The local pages visitors of `proxy` are redirected to (`http-request redirect location`,
    /// `errorloc`), each once, however many backends send visitors there, with the rules their
    /// path brings into play. (Pages HAProxy sends itself, `errorfile` and `return`, are final:
    /// no rule runs on them.)
    private static func redirected(_ proxy: HAProxyProxy, in model: HAProxyModel) -> [Redirected] {
        let backends = model.backends(of: proxy)
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
        guard !grouped.isEmpty else { return [] }
        var router = HAProxyPageRouter(proxy, in: model)
        return grouped.map { sending in
            let path = sending[0].path
            // The frontend's rules first, then those of the backend the page's path is routed to.
            var stages: [(proxy: HAProxyProxy, route: HAProxyPageRoute?)] = [(proxy, nil)]
            if let route = router.route(path), !route.backend.isSection(proxy) { stages.append((route.backend, route)) }
            var refusals: [(rule: HAProxyRequestGuard, in: HAProxyProxy, route: HAProxyPageRoute?)] = []
            for (guarding, route) in stages {
                for rule in guarding.settings.requestGuards {
                    let (outcome, onPath, _) = HAProxyPathCondition.evaluate(rule.condition, path: path, acls: guarding.settings.acls)
                    if outcome != .no, onPath { refusals.append((rule, guarding, route)) }
                }
            }
            return Redirected(sending: sending, refusals: refusals)
        }
    }

    /// What HAProxy opens when it starts: every page file a line names, wherever the line
    /// stands (an `http-errors` section no proxy uses too). One file missing stops the whole
    /// server, so these routes belong to no site and to no row of the coverage table.
    static func loaded(_ model: HAProxyModel, file: (HAProxyPage) -> PageFile) -> [ErrorPageRoute<HAProxyPage>] {
        model.pages.map { page in ErrorPageRoute(origin: page, codes: [page.code], files: [([page.code], file(page))]) }
    }
}
