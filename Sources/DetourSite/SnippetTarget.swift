/// The servers detour writes snippets for, and the templates that write them.
public enum SnippetTarget: String, CaseIterable, Sendable {
    case nginx
    /// nginx's part for the `http` block: the `map`s the server part reads.
    case nginxHTTP = "nginx-http"
    /// nginx's part for each location that proxies: intercepts the upstream's server errors only.
    case nginxProxy = "nginx-proxy"
    case caddy, haproxy, apache
    /// A cache in front of the proxy: its own pages for a dead backend, and the backend's 5xx replaced.
    case varnish

    /// `templates/snippets/<file>.mustache`, written to `public/snippets/<file>`.
    public var snippetTemplate: String {
        switch self {
        case .nginx: "snippets/nginx.conf"
        case .nginxHTTP: "snippets/nginx-http.conf"
        case .nginxProxy: "snippets/nginx-proxy.conf"
        case .caddy: "snippets/caddy.caddyfile"
        case .haproxy: "snippets/haproxy.cfg"
        case .apache: "snippets/apache.conf"
        case .varnish: "snippets/varnish.vcl"
        }
    }

    /// A complete configuration around the snippet, for `detour snippet --example`.
    public var exampleTemplate: String? {
        isNginxPart ? nil : "examples/\(rawValue)"
    }

    /// The nginx parts that only complete `nginx`'s snippet and have no example of their own.
    public var isNginxPart: Bool { self == .nginxHTTP || self == .nginxProxy }

    /// Statuses the proxy replaces when the upstream itself sends them: server errors, and the
    /// body-reading errors nginx raises in the very location that proxies (an upstream's own
    /// 413 means the same to a visitor). An application's other 4xx pages pass through.
    public static func replacedFromUpstream(_ status: Int) -> Bool {
        status >= 500 || status == 408 || status == 413
    }

    /// What HAProxy's log-format files carry where the request's ID goes (the HTML page's is
    /// `OutputFormat.requestReferenceMarkup`).
    public static let haproxyRequestReference = "%[unique-id]"

}
