/// The Content-Type of each kind of file a build writes.
enum MediaType {
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "json": "application/json",
        "xml": "application/xml; charset=utf-8",
        "txt": "text/plain; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "ico": "image/x-icon",
        "woff2": "font/woff2",
        "woff": "font/woff",
        // Server snippets, HAProxy's raw responses and log-format files: shown as text.
        "conf": "text/plain; charset=utf-8",
        "cfg": "text/plain; charset=utf-8",
        "caddyfile": "text/plain; charset=utf-8",
        "http": "text/plain; charset=utf-8",
        "lf": "text/plain; charset=utf-8",
    ]

    static func of(path: String) -> String {
        let name = path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...]
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
