import DetourTestSupport
import Foundation

/// Requests the server itself refuses, too large or forbidden by its rules, on each server: what the visitor
/// gets and what is logged (nginx and Apache only at the `info` level, but a body over nginx's
/// limit at `error`).
extension LogReproduction {
    static let longPath = "/" + String(repeating: "a", count: 9_000)
    static let longHeader = ["-H", "X-Big: " + String(repeating: "b", count: 9_000)]
    static let caddyLimit = "servers {\n\t\tmax_header_size 16KB\n\t}"

    /// Apache serving an empty folder its workers may read, with the directives `directives`
    /// writes for the folder's path, and `modules` besides the usual ones.
    private static func apacheFolder(modules: [String] = [], _ directives: (String) -> String) throws -> Outcome {
        let site = try TemporaryFolder()
        defer { site.remove() }
        chmod(site.path, 0o755)
        return try Reproduce.apache(directives(site.path), root: site.path, modules: Reproduce.apacheModules + modules)
    }

    /// Apache's workers as nobody, asked for a file in a folder of mode 700 (the site's folder
    /// granted, with `override`).
    private static func apacheBehindAClosedFolder(override: String) throws -> Outcome {
        let site = try TemporaryFolder()
        defer { site.remove() }
        try site.write(["private/report.html": "report"])
        chmod(site.path, 0o755)
        chmod(site.path + "/private", 0o700)
        return try Reproduce.apache(
            "User nobody\nGroup nogroup\n<Directory \(site.path)>\n    Require all granted\n    \(override)\n</Directory>", root: site.path,
            path: "/private/report.html")
    }

    static let requests: [LogReproduction] = [
        .init(name: "nginx, a request line over large_client_header_buffers", slugs: ["request-too-large"], status: 414) {
            try Reproduce.nginx(location: "location / { return 200; }", path: longPath)
        },
        .init(name: "nginx, a header line over large_client_header_buffers", slugs: ["request-too-large"], status: 400) {
            try Reproduce.nginx(location: "location / { return 200; }", options: longHeader)
        },
        .init(name: "nginx, more headers than its large_client_header_buffers hold", slugs: ["request-too-large"], status: 400) {
            try Reproduce.nginx(
                location: "location / { return 200; }", options: (0..<12).flatMap { ["-H", "X-\($0): " + String(repeating: "c", count: 3_000)] })
        },
        // A request line that ends exactly where the last large buffer does leaves no room for
        // the first header: nginx has no header line to name, and says so in other words.
        .init(name: "nginx, a request line that fills its last large buffer to the byte", slugs: ["request-too-large"], status: 400) {
            try Reproduce.nginx(
                "server { listen 127.0.0.1:PORT; client_header_buffer_size 512; large_client_header_buffers 1 1k; location / { return 200; } }"
            ) { port in
                let requestLine = "GET /" + String(repeating: "a", count: 1_024 - "GET / HTTP/1.1\r\n".utf8.count) + " HTTP/1.1\r\n"
                let visitor = try VisitorConnection(port: port)
                guard visitor.send(requestLine + "Host: localhost\r\nX-A: b\r\n\r\n") else { return -1 }
                return visitor.status()
            }
        },
        // nginx gives the temporary folder to its workers, not the folder above it, which only root may enter.
        .init(name: "nginx, an upload into a temporary folder its workers may not reach", slugs: ["request-too-large"], status: 500, runnable: getuid() == 0) {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            try FileManager.default.createDirectory(
                atPath: folder.path + "/private", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            // Proxied, so that nginx reads the body (it drops it unread for `return`).
            return try with(.answers) { upstream in
                try Reproduce.nginx(
                    location: "client_body_temp_path \(folder.path)/private/body; location / { proxy_pass http://127.0.0.1:\(upstream.port); }",
                    options: ["--data-binary", String(repeating: "u", count: 100_000)])
            }
        },
        .init(name: "nginx, a body over client_max_body_size", slugs: ["request-too-large"], status: 413) {
            try Reproduce.nginx(location: "client_max_body_size 1k; location / { return 200; }", options: ["--data", String(repeating: "d", count: 2_048)])
        },
        .init(name: "nginx, a chunked body over client_max_body_size", slugs: ["request-too-large"], status: 413) {
            // Counted as it is read, which `return` never does: the body is read for the proxy.
            try Reproduce.nginx(
                location: "client_max_body_size 1k; location / { proxy_pass http://127.0.0.1:9; }",
                options: ["-H", "Transfer-Encoding: chunked", "--data", String(repeating: "d", count: 4_096)])
        },
        .init(name: "nginx, a deny rule", slugs: ["forbidden-by-configuration"], status: 403) {
            try Reproduce.nginx(location: "location / { deny all; }")
        },
        // The prefix folder holds nginx's configuration and no index.html.
        .init(name: "nginx, a folder with no index file", slugs: ["forbidden-by-configuration"], status: 403) {
            try Reproduce.nginx(location: "location / { root {{PREFIX}}; }")
        },
        .init(name: "Apache, a folder Require denies", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheFolder { "<Directory \($0)>\n    Require all denied\n</Directory>" }
        },
        // Apache 2.2's rules, which mod_access_compat still reads: the same words, its own AH number.
        .init(name: "Apache, a folder a 2.2-style Deny rule closes", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheFolder(modules: ["access_compat"]) { "<Directory \($0)>\n    Order deny,allow\n    Deny from all\n</Directory>" }
        },
        // mod_dir finds no index.html, and Options -Indexes forbids mod_autoindex's listing.
        .init(name: "Apache, a folder with no index file and listings off", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheFolder(modules: ["dir", "autoindex"]) {
                "DirectoryIndex index.html\n<Directory \($0)>\n    Require all granted\n    Options -Indexes\n</Directory>"
            }
        },
        // As root, as CI runs: the workers run as nobody, who may not enter a folder of mode
        // 700 on the way to the file. Apache looks for the folder's .htaccess first, unless
        // AllowOverride None tells it not to; then the walk to the file says it.
        .init(name: "Apache, a file behind a folder its user may not enter", slugs: ["forbidden-by-configuration"], status: 403, runnable: getuid() == 0) {
            try apacheBehindAClosedFolder(override: "")
        },
        .init(
            name: "Apache with AllowOverride None, a file behind a folder its user may not enter", slugs: ["forbidden-by-configuration"], status: 403,
            runnable: getuid() == 0
        ) {
            try apacheBehindAClosedFolder(override: "AllowOverride None")
        },
        .init(name: "Apache, a request line over LimitRequestLine", slugs: ["request-too-large"], status: 414) {
            try Reproduce.apache("LogLevel info", path: longPath)
        },
        .init(name: "Apache, a header over LimitRequestFieldSize", slugs: ["request-too-large"], status: 400) {
            try Reproduce.apache("LogLevel info", options: longHeader)
        },
        // Each value fits; joined with ", " they do not.
        .init(name: "Apache, a header sent twice past LimitRequestFieldSize", slugs: ["request-too-large"], status: 400) {
            try Reproduce.apache(
                "LogLevel info\nLimitRequestFieldSize 100",
                options: ["-H", "X-A: " + String(repeating: "a", count: 60), "-H", "X-A: " + String(repeating: "b", count: 60)])
        },
        .init(name: "Apache, more headers than LimitRequestFields", slugs: ["request-too-large"], status: 400) {
            try Reproduce.apache("LogLevel info", options: (0..<110).flatMap { ["-H", "X-\($0): c"] })
        },
        // Logged at info: at Apache's default level (warn) the 413 leaves no line.
        .init(name: "Apache, a body over LimitRequestBody", slugs: ["request-too-large"], status: 413) {
            try Reproduce.apache("LogLevel info\nLimitRequestBody 100", options: ["--data", String(repeating: "d", count: 1_000)])
        },
        .init(name: "Apache, a chunked body over LimitRequestBody", slugs: ["request-too-large"], status: 413) {
            try Reproduce.apache(
                "LogLevel info\nLimitRequestBody 100", options: ["-H", "Transfer-Encoding: chunked", "--data", String(repeating: "d", count: 1_000)])
        },
        // The limit guards what Apache serves itself: ProxyPass passes the body on, and the
        // backend's answer comes back.
        .init(name: "Apache, a body over LimitRequestBody passed on by ProxyPass", slugs: [], status: 200) {
            try with(.answers) { upstream in
                try Reproduce.apache(
                    "LogLevel info\nLimitRequestBody 100\nProxyPass / http://127.0.0.1:\(upstream.port)/",
                    options: ["--data", String(repeating: "d", count: 1_000)])
            }
        },
        // A request line that fits nginx's and Apache's limits but not HAProxy's buffer.
        .init(name: "HAProxy, a request larger than tune.bufsize", slugs: ["request-too-large"], status: 400) {
            try with(.answers) { try Reproduce.haproxy(server: "127.0.0.1:\($0.port)", path: "/" + String(repeating: "a", count: 17_000)) }
        },
        .init(name: "HAProxy, a header larger than tune.bufsize", slugs: ["request-too-large"], status: 400) {
            try with(.answers) { try Reproduce.haproxy(server: "127.0.0.1:\($0.port)", options: ["-H", "X-Big: " + String(repeating: "b", count: 17_000)]) }
        },
        // Caddy logs nothing; its limit is the servers' max_header_size (else Go's, about 1 MB).
        .init(name: "Caddy, a header over max_header_size", slugs: [], status: 431) {
            try with(.answers) {
                try Reproduce.caddy(upstream: "127.0.0.1:\($0.port)", global: caddyLimit, ask: ["-H", "X-Big: " + String(repeating: "b", count: 30_000)])
            }
        },
        .init(name: "Caddy, an address over max_header_size", slugs: [], status: 431) {
            try with(.answers) { try Reproduce.caddy(upstream: "127.0.0.1:\($0.port)", global: caddyLimit, path: "/" + String(repeating: "a", count: 30_000)) }
        },
    ]
}
