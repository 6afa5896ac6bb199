import DetourTestSupport
import Foundation

/// The reproductions of configuration that passes the server's own test and fails per request:
/// an upstream or local address built from a variable (nginx, Apache) or placeholder (Caddy)
/// that does not make one, a cache, thread pool or rate from a variable that names none, a
/// cache key too long for its buffer, a cache file damaged, a rewrite to nothing, a named error
/// page with no URI to carry, a rate limit's key too long to count, and SSI: a page that
/// includes itself, a fragment too big to hold in memory.
extension LogReproduction {
    /// nginx asked once for `/` with `location / { directives }`.
    private static func nginxLocation(_ directives: String) throws -> Outcome {
        try Reproduce.nginx(location: "location / { \(directives) }")
    }

    /// nginx serving a file under the limit `limit` of the zone `zone`, keyed on the header
    /// `X-Api-Key`, asked by a visitor whose key is `keyBytes` long.
    private static func nginxLimited(by zone: String, _ limit: String, keyBytes: Int) throws -> Outcome {
        let key = String(repeating: "k", count: keyBytes)
        return try nginxServingFile(limit, http: zone, options: ["-H", "X-Api-Key: \(key)"])
    }

    /// nginx serving a file from a folder with `directives` in force (`http` in its http
    /// block), asked for `path` with curl's `options`.
    private static func nginxServingFile(_ directives: String, http: String = "", path: String = "/", options: [String] = []) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(["index.html": "served"])
        return try Reproduce.nginx(location: "location / { \(directives) root \(folder.path); }", http: http, path: path, options: options)
    }

    /// nginx serving `files` with SSI on, asked for `/`.
    private static func nginxSSI(_ files: [String: String]) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(files)
        return try nginxLocation("ssi on; root \(folder.path); index index.html;")
    }

    /// Apache proxying each request to the backend the header `X-Backend` names, asked with
    /// `header` as its value (`nil`: without it).
    private static func apacheProxyingTo(header: String?) throws -> Outcome {
        try Reproduce.apache(
            "RewriteEngine On\nRewriteRule ^/(.*)$ http://%{HTTP:X-Backend}/$1 [P]", path: "/orders",
            options: header.map { ["-H", "X-Backend: \($0)"] } ?? [], modules: Reproduce.apacheModules + ["rewrite"])
    }

    /// nginx caching what an upstream answers (`proxy_cache` being `cache`, of the zone
    /// `pages`), asked once for `path`.
    private static func nginxCaching(_ cache: String, path: String) throws -> Outcome {
        try with(.answers) { application in
            try Reproduce.nginx(
                location: "location / { proxy_cache \(cache); proxy_cache_valid 200 10m; proxy_pass http://127.0.0.1:\(application.port); }",
                http: "proxy_cache_path {{PREFIX}}/cache keys_zone=pages:1m; large_client_header_buffers 4 32k;", path: path)
        }
    }

    /// nginx caching what an upstream answers, asked twice for the same page, the cache file
    /// that the first answer left changed in between as `damage` tells.
    private static func nginxWithDamagedCacheFile(_ damage: @escaping (Data) -> Data) throws -> Outcome {
        try with(.answers) { application in
            try Reproduce.nginx(
                """
                proxy_cache_path {{PREFIX}}/cache keys_zone=pages:1m;
                server { listen 127.0.0.1:PORT; location / { proxy_cache pages; proxy_cache_valid 200 10m;
                    proxy_pass http://127.0.0.1:\(application.port); } }
                """
            ) { port, nginx in
                _ = try Visitor.status("http://127.0.0.1:\(port)/", [])
                let cache = nginx.folder.url.appendingPathComponent("cache")
                let stored = FileManager.default.enumerator(at: cache, includingPropertiesForKeys: nil)?.allObjects.compactMap { $0 as? URL } ?? []
                for file in stored where !file.hasDirectoryPath {
                    try damage(try Data(contentsOf: file)).write(to: file)
                }
                return try Visitor.status("http://127.0.0.1:\(port)/", [])
            }
        }
    }

    static let configurationAtRequestTime: [LogReproduction] = [
        .init(name: "nginx, proxy_pass from an empty variable", slugs: ["upstream-address-from-a-variable"], status: 500) {
            try nginxLocation(#"set $backend ""; proxy_pass $backend;"#)
        },
        .init(name: "nginx, proxy_pass from a variable without the scheme", slugs: ["upstream-address-from-a-variable"], status: 500) {
            try nginxLocation(#"set $backend "127.0.0.1:\#(LoopbackPort.free())"; proxy_pass $backend;"#)
        },
        // `$arg_port` is empty: the visitor sent no `?port=`.
        .init(name: "nginx, proxy_pass with a port from a missing argument", slugs: ["upstream-address-from-a-variable"], status: 500) {
            try nginxLocation("proxy_pass http://127.0.0.1:$arg_port;")
        },
        .init(name: "nginx, fastcgi_pass from a variable without a port", slugs: ["upstream-address-from-a-variable"], status: 500) {
            try nginxLocation(#"set $php "127.0.0.1"; fastcgi_pass $php;"#)
        },
        .init(name: "Caddy, reverse_proxy from a header the visitor did not send", slugs: ["upstream-address-from-a-variable"], status: 502) {
            try Reproduce.caddy(site: "\treverse_proxy {http.request.header.X-Backend}\n")
        },
        // A host without its port: Caddy dials port 0.
        .init(name: "Caddy, reverse_proxy from a header with a host and no port", slugs: ["upstream-address-from-a-variable"], status: 502) {
            try Reproduce.caddy(site: "\treverse_proxy {http.request.header.X-Backend}\n", ask: ["-H", "X-Backend: 127.0.0.1"])
        },
        .init(name: "Apache, RewriteRule [P] from a header the visitor did not send", slugs: ["upstream-address-from-a-variable"], status: 400) {
            try apacheProxyingTo(header: nil)
        },
        // Apache reads `127.0.0.1:abc` as a host name and looks it up.
        .init(name: "Apache, RewriteRule [P] from a header with a port that is not a number", slugs: ["upstream-dns"], status: 500) {
            try apacheProxyingTo(header: "127.0.0.1:abc")
        },
        .init(name: "Apache, RewriteRule [P] to a name that does not resolve", slugs: ["upstream-dns"], status: 500) {
            try apacheProxyingTo(header: "app.invalid:8080")
        },
        // Apache starts with a name it cannot resolve: it looks it up when a request needs it.
        .init(name: "Apache, ProxyPass to a name that does not resolve", slugs: ["upstream-dns"], status: 500) {
            try Reproduce.apache("ProxyPass / http://app.invalid:8080/")
        },
        // `$1` is empty for `/old/`: the capture lost its slash.
        .init(name: "nginx, a rewrite to an empty URI", slugs: ["nginx-internal-redirection-cycle"], status: 500) {
            try Reproduce.nginx(location: "location /old/ { rewrite ^/old/(.*)$ $1 last; }", path: "/old/")
        },
        // A request line that is not HTTP has no URI to carry into a named location: 500, not 400.
        .init(name: "nginx, a malformed request line sent to a named error_page location", slugs: ["nginx-internal-redirection-cycle"], status: 500) {
            try Reproduce.nginx(
                "server { listen 127.0.0.1:PORT; error_page 400 @fallback; location @fallback { return 400; } location / { return 200; } }"
            ) { port in
                let visitor = try VisitorConnection(port: port)
                guard visitor.send("GET\r\n\r\n") else { return -1 }
                return visitor.status()
            }
        },
        // Not a 500: nginx connects from its usual address and the upstream answers.
        .init(name: "nginx, proxy_bind from a variable that is not an address", slugs: ["upstream-address-from-a-variable"], status: 200) {
            try with(.answers) { application in
                try Reproduce.nginx(
                    location: "location / { proxy_bind $arg_from; proxy_pass http://127.0.0.1:\(application.port); }", path: "/?from=abc")
            }
        },
        .init(name: "nginx, proxy_cache from a variable naming no zone", slugs: ["upstream-address-from-a-variable"], status: 500) {
            try nginxCaching("$arg_cache", path: "/?cache=images")
        },
        // The key does not fit in proxy_buffer_size: nginx asks the upstream without the cache.
        .init(name: "nginx, a cache key longer than proxy_buffer_size", slugs: ["upstream-header-too-big"], status: 200) {
            try nginxCaching("pages", path: "/search?q=" + String(repeating: "q", count: 9000))
        },
        // The stored header's name holds a NUL: nginx reads the page from the upstream instead.
        .init(name: "nginx, a cache file damaged outside nginx", slugs: ["upstream-closed-connection"], status: 200) {
            try nginxWithDamagedCacheFile { stored in
                guard let name = stored.range(of: Data("Content-Length".utf8)) else { return stored }
                var damaged = stored
                damaged[name.lowerBound + 3] = 0
                return damaged
            }
        },
        // The connection closes before the status line.
        .init(name: "nginx, aio threads from a variable naming no pool", slugs: ["upstream-address-from-a-variable"], status: 0) {
            try nginxServingFile("aio threads=$arg_pool;", path: "/index.html?pool=nope")
        },
        // Not limited: the visitor gets the page at full speed.
        .init(name: "nginx, limit_rate from a variable that is not a size", slugs: ["upstream-address-from-a-variable"], status: 200) {
            try nginxServingFile("limit_rate $arg_rate;", path: "/index.html?rate=fast")
        },
        // A key too long to count is not limited: the visitor gets the page.
        .init(name: "nginx, a limit_conn key longer than 255 bytes", slugs: ["rate-limiting"], status: 200) {
            try nginxLimited(by: "limit_conn_zone $http_x_api_key zone=keys:1m;", "limit_conn keys 1;", keyBytes: 300)
        },
        .init(name: "nginx, a limit_req key longer than 65535 bytes", slugs: ["rate-limiting"], status: 200) {
            try nginxLimited(
                by: "limit_req_zone $http_x_api_key zone=keys:1m rate=1r/m; large_client_header_buffers 4 128k;", "limit_req zone=keys;",
                keyBytes: 70_000)
        },
        // A fragment held in memory (`set=`) past subrequest_output_buffer_size: the visitor
        // gets nothing, not even a status line.
        .init(name: "nginx, an SSI fragment too big to hold in memory", slugs: ["nginx-internal-redirection-cycle"], status: 0) {
            try nginxSSI([
                "index.html": #"<!--# include virtual="/big.html" set="x" --><!--# echo var="x" -->"#,
                "big.html": String(repeating: "b", count: 20_000),
            ])
        },
        .init(name: "nginx, an SSI fragment held in memory that includes another", slugs: ["nginx-internal-redirection-cycle"], status: 0) {
            try nginxSSI([
                "index.html": #"<!--# include virtual="/inner.html" set="x" --><!--# echo var="x" -->"#,
                "inner.html": #"inner <!--# include virtual="/leaf.html" -->"#, "leaf.html": "leaf",
            ])
        },
        // What arrives is the page up to the include, once per level, then SSI's error text.
        .init(name: "nginx, an SSI page that includes itself", slugs: ["nginx-internal-redirection-cycle"], status: 200) {
            try nginxSSI(["index.html": #"before <!--# include virtual="/index.html" --> after"#])
        },
    ]
}
