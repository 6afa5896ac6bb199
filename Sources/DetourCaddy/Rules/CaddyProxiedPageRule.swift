import DetourDiagnostics
import DetourProxyCore

/// A `handle_errors` route that fetches the page from the site's own upstream: when that
/// upstream is down, fetching the page fails too, and Caddy swallows the failure.
struct CaddyProxiedPageRule: CaddyRule {
    static let about = CaddyRules.proxied

    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic] {
        ErrorPageChecks.proxiedPages(site.model).compactMap { route, upstream in
            guard case .errors(let errors) = route.origin, let proxy = errors.proxy else { return nil }
            let addresses = CaddySite.upstreams(of: proxy).joined(separator: " ")
            return Self.finding(
                "handle_errors fetches the page from \(addresses), the site's own upstream: when it is down the page fails too, and visitors get the status with an empty body",
                at: upstream,
                notes: [
                    Self.fix(
                        "serve the pages from disk here: 'root * /usr/share/detour/errors', 'rewrite * /{err.status_code}.html' and 'file_server' (detour's detour_pages snippet)"
                    )
                ])
        }
    }
}
