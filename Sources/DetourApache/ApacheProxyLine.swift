import DetourDiagnostics

/// The line that sends a URL path to the upstream, and its kind: each is kept from the pages
/// in its own way.
struct ApacheProxyLine: Sendable {
    enum Kind: Sendable {
        /// `ProxyPass` or `ProxyPassMatch` at the site's top: a `ProxyPass <path> !` before it.
        case proxyPass
        /// `ProxyPass` inside `<Location>`: Apache tries it before every top-level line, so only
        /// a later `<Location>` with `ProxyPass "!"` keeps a path here.
        case section
        /// A `[P]` RewriteRule: mod_rewrite runs after mod_proxy, whatever its `!` lines say.
        case rewrite
    }

    var kind: Kind
    var location: SourceLocation

    /// What keeps the folder `folder` (`/errors/`) from this line.
    func fix(keeping folder: String) -> String {
        switch kind {
        case .proxyPass: "add 'ProxyPass \(folder) !' before it (at server level it comes before every virtual host's)"
        case .section:
            "add '<Location \(folder)> ProxyPass \"!\" </Location>' after it: the last <Location> that takes a path decides, and a ProxyPass line outside one is not tried"
        case .rewrite:
            "add 'RewriteRule ^\(folder) - [L]' before it: mod_rewrite runs after ProxyPass, so 'ProxyPass \(folder) !' does not stop a [P] rule"
        }
    }
}
