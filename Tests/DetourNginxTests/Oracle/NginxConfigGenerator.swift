import DetourTestSupport
import Foundation

/// Composes nginx configurations for the runtime oracle from building blocks (proxied,
/// redirect-only and static sites; error pages at the server or in one location; the pages'
/// own location in its forms) and plants faults (a code left out, the pages' location missing,
/// guarded, pointed elsewhere, a soft status, no `proxy_intercept_errors`), seeded.
struct NginxConfigGenerator {
    static let codes = [500, 502, 503, 504]
    /// Every directive the generator can write, in `Oracle/nginx-vocabulary.txt`.
    static let vocabularyFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("nginx-vocabulary.txt")

    var random: SplitMix64

    /// The `http` block's servers for `port`, pages under `pages` (its `errors/` folder),
    /// the upstream at `upstream`, temporary files in `folder`.
    mutating func configuration(port: Int, upstream: Int, pages: String, folder: String) -> (text: String, sites: [OracleSite]) {
        var lines = [
            "worker_processes 1;", "events { worker_connections 256; }", "http {", "    access_log off;",
            "    client_body_temp_path {{PREFIX}}/body;", "    proxy_temp_path {{PREFIX}}/proxy;", "    types { text/html html; }",
        ]
        var sites: [OracleSite] = []
        for index in 0..<Int.random(in: 1...3, using: &random) {
            let host = "s\(index).test"
            let start = lines.count + 1
            lines += site(host: host, port: port, upstream: upstream, pages: pages, isDefault: index == 0)
            sites.append(
                OracleSite(
                    host: host, lines: start...lines.count,
                    paths: OracleProbe.failingPaths(under: "/app/", codes: Self.codes) + OracleProbe.failingPaths(under: "/", codes: Self.codes)))
        }
        lines.append("}")
        return ((lines.joined(separator: "\n") + "\n").replacingOccurrences(of: "{{PREFIX}}", with: folder), sites)
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func site(host: String, port: Int, upstream: Int, pages: String, isDefault: Bool) -> [String] {
        ["    server {", "        listen 127.0.0.1:\(port)\(isDefault ? " default_server" : "");", "        server_name \(host);"]
            + body(host: host, upstream: upstream, pages: pages) + ["    }"]
    }

    private mutating func body(host: String, upstream: Int, pages: String) -> [String] {
        var lines: [String] = []
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            lines.append("        return 301 https://\(host)$request_uri;")
            return lines
        case 1:
            lines.append("        location / { return 200 \"home\"; }")
            return lines
        default: break
        }
        // error_page lines: all codes, or some left out; soft status now and then.
        var codes = Self.codes
        if chance(15) { codes.removeAll { _ in chance(40) } }
        let errorPages = codes.map { code in
            chance(5) ? "error_page \(code) =200 /errors/\(code).html;" : "error_page \(code) /errors/\(code).html;"
        }
        let inLocation = chance(20)
        if !inLocation { lines += errorPages.map { "        " + $0 } }
        // The pages' own location, in one of its forms, or a fault in it.
        let prefix = chance(50) ? "location ^~ /errors/" : "location /errors/"
        switch Int.random(in: 0..<20, using: &random) {
        case 0: break
        case 1: lines.append("        \(prefix) { root \(pages)/missing; internal; }")
        case 2:
            lines += [
                "        \(prefix) {", "            root \(pages);", "            auth_basic \"staff\";",
                "            auth_basic_user_file {{PREFIX}}/htpasswd;", "        }",
            ]
        case 3: lines.append("        \(prefix) { root \(pages); deny all; }")
        case 4: lines.append("        \(prefix) { alias \(pages)/errors/; internal; }")
        default: lines.append("        \(prefix) { root \(pages); internal; }")
        }
        lines.append("        location /app/ {")
        lines.append("            proxy_pass http://127.0.0.1:\(upstream);")
        lines.append("            proxy_connect_timeout 1s;")
        lines.append("            proxy_read_timeout 300ms;")
        if chance(85) { lines.append("            proxy_intercept_errors on;") }
        if inLocation { lines += errorPages.map { "            " + $0 } }
        lines.append("        }")
        lines.append(
            chance(30)
                ? "        location / { proxy_pass http://127.0.0.1:\(upstream); proxy_read_timeout 300ms; }" : "        location / { return 200 \"home\"; }")
        return lines
    }
}
