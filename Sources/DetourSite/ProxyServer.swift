/// The servers detour writes snippets for, and the templates that write them.
public enum ProxyServer: String, CaseIterable, Sendable {
    case nginx
    /// nginx's part for the `http` block: the `map`s the server part reads.
    case nginxHTTP = "nginx-http"
    case caddy, haproxy, apache

    /// `templates/snippets/<file>.mustache`, written to `public/snippets/<file>`.
    public var snippetTemplate: String {
        switch self {
        case .nginx: "snippets/nginx.conf"
        case .nginxHTTP: "snippets/nginx-http.conf"
        case .caddy: "snippets/caddy.caddyfile"
        case .haproxy: "snippets/haproxy.cfg"
        case .apache: "snippets/apache.conf"
        }
    }

    /// A complete configuration around the snippet, for `detour snippet --example`.
    public var exampleTemplate: String? {
        self == .nginxHTTP ? nil : "examples/\(rawValue)"
    }

    /// Statuses HAProxy's `errorfile` accepts; it refuses any other.
    public static let haproxyErrorfileStatuses: Set<Int> = [200, 400, 401, 403, 404, 405, 407, 408, 410, 413, 425, 429, 500, 501, 502, 503, 504]
}
