import DetourDiagnostics
import DetourProxyCore

/// An ErrorDocument whose path a ProxyPass, a `<Location>`'s ProxyPass or a `[P]` RewriteRule
/// sends to the upstream: when the upstream is the failure, the page fails with it. Each is kept
/// from the pages its own way (`ApacheProxyLine.fix`).
struct ApacheProxiedPageRule: ApacheRule {
    static let about = ApacheRules.proxied

    func check(_ site: ApacheSite, in context: ApacheCheckContext) -> [Diagnostic] {
        ErrorPageChecks.proxiedPages(site.model).compactMap { route, pass in
            let document = route.origin.local.document
            guard let path = route.origin.proxiedURL, let line = route.origin.proxiedBy else { return nil }
            let folder = path.split(separator: "/").first.map { "/\($0)/" } ?? path
            return Self.finding(
                "ErrorDocument \(document.code) '\(document.written)' is proxied: '\(path)' goes to the upstream, which fails with the page",
                at: document.location,
                notes: [
                    .init(line.kind == .rewrite ? "this RewriteRule takes it" : "this ProxyPass takes it", at: pass),
                    Self.fix(line.fix(keeping: folder)),
                ])
        }
    }
}
