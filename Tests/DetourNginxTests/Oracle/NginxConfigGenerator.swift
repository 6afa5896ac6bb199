import DetourTestSupport
import Foundation

/// Composes nginx configurations for the runtime oracle from building blocks (proxied,
/// redirect-only and static sites; error pages at the server or in one location; the pages'
/// own location in its forms) and plants faults (a code left out, the pages' location missing,
/// guarded, pointed elsewhere, a soft status, no `proxy_intercept_errors`, a value the build
/// refuses; a sign-in flow under `auth_request`, `try_files` before the application, a
/// `rewrite`), seeded.
struct NginxConfigGenerator {
    static let codes = [500, 502, 503, 504]
    /// Every directive the generator can write, in `Oracle/nginx-vocabulary.txt`.
    static let vocabularyFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("nginx-vocabulary.txt")

    var random: SplitMix64

    /// A read timeout of a second: on a loaded machine the upstream's malformed answer can take
    /// longer than a shorter one, and the 502 a check finding names would meet a 504.
    private static let readTimeout = "proxy_read_timeout 1s;"

    /// The `http` block's servers for `port`, pages under `pages` (its `errors/` folder),
    /// the upstream at `upstream`, temporary files in `folder`.
    mutating func configuration(port: Int, upstream: Int, pages: String, folder: String) -> String {
        var lines = [
            "worker_processes 1;", "events { worker_connections 256; }", "http {", "    access_log off;",
            "    client_body_temp_path {{PREFIX}}/body;", "    proxy_temp_path {{PREFIX}}/proxy;", "    types { text/html html; }",
            // The auth service lets every request in but one: that visitor has not signed in.
            // ($request_uri: the auth subrequest's own $uri is /auth.)
            "    map $request_uri $signed_in { default ok; ~/s401(\\?|$) s401; }",
        ]
        for index in 0..<Int.random(in: 1...3, using: &random) {
            lines += site(host: "s\(index).test", port: port, upstream: upstream, pages: pages, isDefault: index == 0)
        }
        lines.append("}")
        return (lines.joined(separator: "\n") + "\n").replacingOccurrences(of: "{{PREFIX}}", with: folder)
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func site(host: String, port: Int, upstream: Int, pages: String, isDefault: Bool) -> [String] {
        ["    server {", "        listen 127.0.0.1:\(port)\(isDefault ? " default_server" : "");", "        server_name \(host);"]
            + body(host: host, upstream: upstream, pages: pages) + ["    }"]
    }

    /// A password or `deny all` on the whole site, with a page for its own refusal (a file of
    /// the pages folder), which the pages' location now and then lifts. Visitors without the
    /// password meet nothing but the refusal: nginx checks it again for the page's request.
    private mutating func guardedSite(pages: String) -> [String] {
        let password = chance(50)
        var lines = password ? ["        auth_basic \"site\";", "        auth_basic_user_file {{PREFIX}}/htpasswd;"] : ["        deny all;"]
        lines.append("        error_page \(password ? 401 : 403) /errors/\(Self.codes[0]).html;")
        lines += Self.codes.map { "        error_page \($0) /errors/\($0).html;" }
        let lift = chance(50) ? (password ? " auth_basic off;" : " allow all;") : ""
        lines.append("        location ^~ /errors/ { root \(pages); internal;\(lift) }")
        lines.append("        location / { root \(pages); }")
        return lines
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
        case 2 where chance(40):
            return guardedSite(pages: pages)
        default: break
        }
        // error_page lines: all codes, or some left out; soft status now and then.
        var codes = Self.codes
        if chance(15) { codes.removeAll { _ in chance(40) } }
        // A sign-in flow before the application: an auth service that lets visitors in or
        // sends them to the sign-in form with 200 (the flow, not a soft status), now and then
        // taking the application's 502 into the form too (a soft status).
        let signIn = chance(15)
        var signInCodes = "401"
        if signIn, chance(25), codes.contains(502) {
            codes.removeAll { $0 == 502 }
            signInCodes = "401 502"
        }
        var errorPages = codes.map { code in
            chance(5) ? "error_page \(code) =200 /errors/\(code).html;" : "error_page \(code) /errors/\(code).html;"
        }
        if signIn { errorPages.insert("error_page \(signInCodes) =200 /signin;", at: 0) }
        let inLocation = chance(20)
        if !inLocation { lines += errorPages.map { "        " + $0 } }
        if chance(15) { lines.append("        rewrite ^/shop/(.*)$ /app/$1 last;") }
        // Intercepting for the whole server reaches the auth service's location too.
        if signIn, chance(25) { lines.append("        proxy_intercept_errors on;") }
        if signIn {
            lines += [
                "        location = /auth { internal; proxy_pass http://127.0.0.1:\(upstream)/$signed_in; }",
                "        location = /signin { return 200 \"sign-in form\"; }",
            ]
        }
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
        case 5: lines.append("        \(prefix) { root \(pages); try_files $uri =404; internal; }")
        default: lines.append("        \(prefix) { root \(pages); internal; }")
        }
        lines.append("        location /app/ {")
        if signIn { lines.append("            auth_request /auth;") }
        lines.append("            proxy_pass http://127.0.0.1:\(upstream);")
        lines.append("            proxy_connect_timeout 1s;")
        lines.append("            \(Self.readTimeout)")
        if chance(85) { lines.append("            proxy_intercept_errors on;") }
        // Reading files in threads, or with file AIO, which Debian's nginx is built without: refused.
        if chance(3) { lines.append(chance(50) ? "            aio threads;" : "            aio on;") }
        if inLocation { lines += errorPages.map { "            " + $0 } }
        lines.append("        }")
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1: lines.append("        location / { proxy_pass http://127.0.0.1:\(upstream); \(Self.readTimeout) }")
        case 2:
            // Files first, then the application.
            lines.append("        location / { root \(pages); try_files $uri @app; }")
            lines.append("        location @app { proxy_pass http://127.0.0.1:\(upstream); \(Self.readTimeout) }")
        case 3:
            // A file the root lacks goes to the application: a page's too, where no location of its own takes it.
            lines.append("        location / { root \(pages)/missing; try_files $uri @app; }")
            lines.append("        location @app { proxy_pass http://127.0.0.1:\(upstream); \(Self.readTimeout) }")
        case 4:
            lines.append(
                "        location / { root \(pages)/missing; if (!-f $request_filename) { proxy_pass http://127.0.0.1:\(upstream); } \(Self.readTimeout) }"
            )
        case 5:
            // A front controller: every path rewritten into the application's location.
            lines.append("        location / { rewrite ^/(.*)$ /app/$1 last; }")
        case 6:
            // Forms go to the application by a proxy_pass of their own, inside an `if` on the
            // method, which inherits the location's interception.
            let intercepts = chance(50) ? " proxy_intercept_errors on;" : ""
            lines.append(
                "        location / { if ($request_method = POST) { proxy_pass http://127.0.0.1:\(upstream); } proxy_pass http://127.0.0.1:\(upstream);\(intercepts) \(Self.readTimeout) }"
            )
        default: lines.append("        location / { return 200 \"home\"; }")
        }
        return lines
    }
}
