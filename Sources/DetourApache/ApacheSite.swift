import DetourDiagnostics
import DetourProxyCore

/// One site (a virtual host, or the main server when there are none) with its neutral model:
/// each ErrorDocument for a local path as a route to the files it leads to, and which page
/// answers each code. The shared checks read the model; the rules word them in Apache's terms.
struct ApacheSite: Sendable {
    /// An ErrorDocument's route as Apache follows it, for the words of findings.
    struct Route: Sendable {
        var local: ApacheLocalDocument
        /// The first of its paths sent to the upstream, and the line that sends it.
        var proxiedURL: String?
        var proxiedBy: ApacheProxyLine?
        /// What keeps visitors from the page, where it is served here.
        var keptOutBy: ApacheGuard?
    }

    let scope: ApacheScope
    let model: ErrorPageSite<Route>

    init(_ scope: ApacheScope, in context: ApacheCheckContext) {
        self.scope = scope
        let routes = scope.localDocuments.filter { Self.isSent($0.document, by: scope) }.map { local in
            Self.route(local, in: scope, pageFiles: context.pageFiles)
        }
        let coverage = SiteCoverage(
            name: scope.isVirtualHost ? scope.name : "(main server)", location: scope.location, answers: Self.answers(scope, codes: context.pageCodes))
        model = ErrorPageSite(coverage: coverage, routes: routes)
    }

    var name: String { scope.isVirtualHost ? "virtual host '\(scope.name)'" : "the main server" }

    /// A page is sent from disk only where no path of it is proxied; a guard counts where it
    /// is served here, the first one a path meets. A `<Location>` that refuses the proxied path
    /// refuses it before the proxy is asked (the access check comes first): the page is kept
    /// out, not fetched.
    private static func route(_ local: ApacheLocalDocument, in scope: ApacheScope, pageFiles: PageFileLookup) -> ErrorPageRoute<Route> {
        let codes = [local.document.code]
        var proxied = local.paths.first { $0.proxy != nil }
        let guarded = !scope.guards.isEmpty
        if guarded, let path = proxied, scope.guardOf(url: path.url, file: nil) != nil { proxied = nil }
        var files: [(codes: [Int], file: PageFile)] = []
        if proxied == nil {
            files = local.paths.compactMap { path in path.file.map { (codes, pageFiles.file($0, uri: path.url)) } }
        }
        let stand = guarded ? local.paths.lazy.compactMap { scope.guardOf(url: $0.url, file: $0.proxy == nil ? $0.file : nil) }.first : nil
        return ErrorPageRoute(
            origin: Route(local: local, proxiedURL: proxied?.url, proxiedBy: proxied?.proxy, keptOutBy: stand), codes: codes, files: files,
            upstream: proxied?.proxy?.location,
            guards: stand.map { [.init(at: $0.location)] } ?? [])
    }

    /// Which page answers each code: the ErrorDocument's target as written, nil when none
    /// does. A 5xx counts only where Apache can raise it for the site (`raisesItself`), and
    /// must answer wherever requests meet the upstream; a 4xx, on every path.
    private static func answers(_ scope: ApacheScope, codes: [Int]) -> [(code: Int, answer: String?)] {
        let proxied = scope.proxiedStarts
        return codes.filter { $0 < 500 || scope.raisesItself($0) }.map { code in
            var answer: String?
            for start in code < 500 || proxied.isEmpty ? ["/"] : proxied {
                guard let document = scope.errorDocument(for: code, at: start), document.target != .builtIn else { return (code, nil) }
                answer = answer ?? document.written
            }
            return (code, answer)
        }
    }

    /// Whether visitors of the site can get `code` from Apache: any 4xx; 500 (an internal
    /// error) and 501 (an unknown method) from any site but one that redirects everything;
    /// the other 5xx where it proxies. A page for a code they cannot get is never sent, so its
    /// flaws are not theirs (a main server's page that a redirect-only host inherits).
    private static func visitorsCanGet(_ code: Int, from scope: ApacheScope) -> Bool {
        guard code >= 500 else { return true }
        return !scope.redirectsEverything && (code <= 501 || scope.firstProxy != nil)
    }

    /// Whether visitors can get `document`: its code is one they can get, and a 502 or above
    /// (raised only where requests meet the upstream) is the page one of those requests gets,
    /// not one a `<Location>` or `<If>` over all of them replaces; a lower one, raised
    /// anywhere, is not one a `<Location />` replaces on every path.
    private static func isSent(_ document: ApacheErrorDocument, by scope: ApacheScope) -> Bool {
        guard visitorsCanGet(document.code, from: scope) else { return false }
        guard document.code > 501 else {
            guard scope.errorDocuments.contains(where: { $0 === document }), let sent = scope.errorDocument(for: document.code, at: "/") else { return true }
            return sent === document || sent.isConditional
        }
        return scope.proxiedStarts.contains { scope.errorDocument(for: document.code, at: $0) === document }
    }

    /// Every ErrorDocument of the site that visitors can get, in code order, then those of its sections.
    var documents: [ApacheErrorDocument] {
        (scope.errorDocuments + scope.sectionErrorDocuments).filter { Self.isSent($0, by: scope) }
    }
}
