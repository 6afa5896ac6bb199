import DetourDiagnostics
import DetourProxyCore

/// An ErrorDocument whose path a ProxyPass sends to the upstream: when the upstream is the
/// failure, the page fails with it. Apache tries ProxyPass rules in order, the main server's
/// first, so `ProxyPass /detour-errors/ !` must come before `ProxyPass /`.
struct ApacheProxiedPageRule: ApacheRule {
    static let about = RuleDescription(
        "apache.error-page-proxied", .error,
        summary: "an ErrorDocument path that a ProxyPass sends to the upstream (no 'ProxyPass <path> !' before it)",
        consequence: "Apache's built-in page when the upstream is down: the page is fetched from the failing upstream"
    )

    func check(_ model: ApacheModel, in context: ApacheCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        forEachSite(model) { scope, documents in
            found += documents.compactMap { local in finding(local.document, local.paths, in: scope) }
        }
        return found.removingDuplicates()
    }

    private func finding(_ document: ApacheErrorDocument, _ paths: [String], in scope: ApacheScope) -> Diagnostic? {
        guard let path = paths.first(where: { scope.proxy(of: $0) != nil }), let pass = scope.proxy(of: path) else { return nil }
        let folder = path.split(separator: "/").first.map { "/\($0)/" } ?? path
        return .error(Self.id, "ErrorDocument \(document.code) '\(document.written)' is proxied: '\(path)' goes to the upstream, which fails with the page", at: document.location, notes: [
            .init("this ProxyPass takes it", at: pass),
            Self.fix("add 'ProxyPass \(folder) !' before it (at server level it comes before every virtual host's)"),
        ])
    }
}
