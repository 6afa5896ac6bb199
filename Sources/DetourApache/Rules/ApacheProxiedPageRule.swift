import DetourDiagnostics
import DetourProxyCore

/// An ErrorDocument whose path a ProxyPass sends to the upstream: when the upstream is the
/// failure, the page fails with it. Apache tries ProxyPass rules in order, the main server's
/// first, so `ProxyPass /detour-errors/ !` must come before `ProxyPass /`.
struct ApacheProxiedPageRule: ApacheRule {
    static let about = ApacheRules.proxied

    func check(_ site: ApacheSite, in context: ApacheCheckContext) -> [Diagnostic] {
        ErrorPageChecks.proxiedPages(site.model).compactMap { route, pass in
            let document = route.origin.local.document
            guard let path = route.origin.proxiedURL else { return nil }
            let folder = path.split(separator: "/").first.map { "/\($0)/" } ?? path
            return Self.finding(
                "ErrorDocument \(document.code) '\(document.written)' is proxied: '\(path)' goes to the upstream, which fails with the page",
                at: document.location,
                notes: [
                    .init("this ProxyPass takes it", at: pass),
                    Self.fix("add 'ProxyPass \(folder) !' before it (at server level it comes before every virtual host's)"),
                ])
        }
    }
}
