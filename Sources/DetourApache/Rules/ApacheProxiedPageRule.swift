import DetourDiagnostics
import DetourProxyCore

/// An ErrorDocument whose path a ProxyPass sends to the upstream: when the upstream is the
/// failure, the page fails with it. Apache tries ProxyPass rules in order, the main server's
/// first, so `ProxyPass /detour-errors/ !` must come before `ProxyPass /`.
struct ApacheProxiedPageRule: ApacheRule {
    static let about = ApacheRules.proxied

    func check(_ model: ApacheModel, in context: ApacheCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for site in model.sites {
            found += site.localDocuments.compactMap { local in finding(local.document, local.paths) }
        }
        return found
    }

    private func finding(_ document: ApacheErrorDocument, _ paths: [ApacheLocalDocument.Path]) -> Diagnostic? {
        guard let proxied = paths.first(where: { $0.proxy != nil }), let pass = proxied.proxy else { return nil }
        let path = proxied.url
        let folder = path.split(separator: "/").first.map { "/\($0)/" } ?? path
        return .error(
            Self.id, "ErrorDocument \(document.code) '\(document.written)' is proxied: '\(path)' goes to the upstream, which fails with the page",
            at: document.location,
            notes: [
                .init("this ProxyPass takes it", at: pass),
                Self.fix("add 'ProxyPass \(folder) !' before it (at server level it comes before every virtual host's)"),
            ])
    }
}
