import DetourDiagnostics
import DetourProxyCore

/// One site (a virtual host, or the main server when there are none) with its neutral model:
/// each ErrorDocument for a local path as a route to the files it leads to, and which page
/// answers each code. The shared checks read the model; the rules word them in Apache's terms.
struct ApacheSite: Sendable {
    /// An ErrorDocument's route as Apache follows it, for the words of findings.
    struct Route: Sendable {
        var local: ApacheLocalDocument
        /// The first of its paths a ProxyPass sends to the upstream.
        var proxiedURL: String?
        /// What keeps visitors from the page, where it is served here.
        var keptOutBy: ApacheGuard?
    }

    let scope: ApacheScope
    let model: ErrorPageSite<Route>

    init(_ scope: ApacheScope, in context: ApacheCheckContext) {
        self.scope = scope
        let routes = scope.localDocuments.map { local in Self.route(local, in: scope, pageFiles: context.pageFiles) }
        let coverage = SiteCoverage(
            name: scope.isVirtualHost ? scope.name : "(main server)", location: scope.location, answers: Self.answers(scope, codes: context.pageCodes))
        model = ErrorPageSite(coverage: coverage, routes: routes)
    }

    var name: String { scope.isVirtualHost ? "virtual host '\(scope.name)'" : "the main server" }

    /// A page is sent from disk only where no path of it is proxied; a guard counts where it
    /// is served here, the first one a path meets.
    private static func route(_ local: ApacheLocalDocument, in scope: ApacheScope, pageFiles: PageFileLookup) -> ErrorPageRoute<Route> {
        let codes = [local.document.code]
        let proxied = local.paths.first { $0.proxy != nil }
        var files: [(codes: [Int], file: PageFile)] = []
        if proxied == nil {
            files = local.paths.compactMap { path in path.file.map { (codes, pageFiles.file($0, uri: path.url)) } }
        }
        let guarded = !scope.guards.isEmpty
        let stand = guarded ? local.paths.lazy.filter { $0.proxy == nil }.compactMap { scope.guardOf(url: $0.url, file: $0.file) }.first : nil
        return ErrorPageRoute(
            origin: Route(local: local, proxiedURL: proxied?.url, keptOutBy: stand), codes: codes, files: files, upstream: proxied?.proxy,
            guards: stand.map { [.init(at: $0.location)] } ?? [])
    }

    /// Which page answers each code: the ErrorDocument's target as written, nil when none
    /// does. A 5xx counts only where Apache can raise it for the site (`raisesItself`).
    private static func answers(_ scope: ApacheScope, codes: [Int]) -> [(code: Int, answer: String?)] {
        codes.filter { $0 < 500 || scope.raisesItself($0) }.map { code in
            guard let document = scope.errorDocument(for: code), document.target != .builtIn else { return (code, nil) }
            return (code, document.written)
        }
    }

    /// Every ErrorDocument of the site, in code order, then those of its sections.
    var documents: [ApacheErrorDocument] { scope.errorDocuments + scope.sectionErrorDocuments }
}
