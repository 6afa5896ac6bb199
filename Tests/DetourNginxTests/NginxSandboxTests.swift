import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourNginx

/// What `detour verify nginx` rewrites in a configuration, by the bytes each word spans: the
/// sandbox copy differs from the original only there.
final class NginxSandboxTests: XCTestCase {
    private func plan(_ text: String, asRoot: Bool = true, certificate: Bool = false) throws -> (plan: SandboxPlan, copy: String) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(["nginx.conf": text])
        var context = SandboxContext(
            folder: "/sandbox", upstream: "127.0.0.1:9001", deadUpstream: "127.0.0.1:9002",
            maps: [PagePathMap(installPath: "/usr/share/detour", localPath: "/here/public")],
            asRoot: asRoot, serverPrefix: "/usr/share/nginx", port: { key in key == "80" ? 8080 : key == "443" ? 8443 : 9999 })
        context.gateways = ["fastcgi": "127.0.0.1:9003"]
        if certificate {
            context.certificate = SandboxCertificate(certificate: "/sandbox/tls/c.pem", key: "/sandbox/tls/k.pem", combined: "/sandbox/tls/ck.pem")
        }
        let plan = NginxSandbox.plan(main: folder.url.appendingPathComponent("nginx.conf"), mainDisplay: "nginx.conf", context: context)
        var bytes = Array(text.utf8)
        for rewrite in plan.rewrites.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            bytes.replaceSubrange(rewrite.range, with: Array(rewrite.text.utf8))
        }
        return (plan, String(decoding: bytes, as: UTF8.self))
    }

    func testListensUpstreamsAndPathsAreRewrittenAndNothingElse() throws {
        let (plan, copy) = try plan(
            """
            user www-data; pid /run/nginx.pid; worker_processes auto;
            events { worker_connections 768; }
            http {
                access_log /var/log/nginx/access.log combined;
                map $uri $root { default /var/www; }
                upstream app { server app1.internal:8080 weight=2; server 10.0.0.2:8080 backup; }
                server {
                    listen 80 default_server; listen [::]:80 default_server;
                    listen 443 ssl http2;
                    ssl_certificate /etc/ssl/site.pem;
                    server_name www.example.com example.com;
                    root html;
                    error_page 502 /errors/502.html;
                    location /errors/ { root /usr/share/detour; internal; }
                    location /api/ { proxy_pass http://app; proxy_read_timeout 5m; }
                    location = /health { proxy_pass https://10.0.0.3:8443/healthz; }
                    location ~ \\.php$ { fastcgi_pass unix:/run/php/php8.2-fpm.sock; }
                }
            }
            """)
        // Removed directives are blanked out, their line breaks kept: every line keeps its number.
        func squeezed(_ text: String) -> [String] {
            text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.split(separator: " ").joined(separator: " ") }
        }
        XCTAssertEqual(
            squeezed(copy),
            squeezed(
                """
                user nobody nogroup; worker_processes auto;
                events { worker_connections 768; }
                http {
                    access_log /sandbox/access.log combined;
                    map $uri $root { default /var/www; }
                    upstream app { server 127.0.0.1:9001 max_fails=0 weight=2; server 127.0.0.1:9001 max_fails=0 backup; }
                    server { proxy_connect_timeout 3s; proxy_read_timeout 3s; proxy_send_timeout 3s; fastcgi_connect_timeout 3s; fastcgi_read_timeout 3s; fastcgi_send_timeout 3s; location = /detour-raise-502 { return 502; }
                        listen 127.0.0.1:8080 default_server;
                        listen 127.0.0.1:8443;

                        server_name www.example.com example.com;
                        root /sandbox/unmapped/usr/share/nginx/html;
                        error_page 502 /errors/502.html;
                        location /errors/ { root /here/public; internal; }
                        location /api/ { proxy_pass http://app; proxy_read_timeout 3s; }
                        location = /health { proxy_pass http://127.0.0.1:9001/healthz; }
                        location ~ \\.php$ { fastcgi_pass 127.0.0.1:9003; }
                    }
                }
                """))
        XCTAssertEqual(plan.sites.map { "\($0.host):\($0.port)" }, ["www.example.com:8080", "www.example.com:8443"])
        // The internal page's code is raised where only the sandbox asks, as the server raises it.
        XCTAssertEqual(plan.sites.first?.routes.map(\.path), ["/", "/api/", "/health", "/a.php", "/detour-raise-502"])
        XCTAssertEqual(plan.sites.first?.routes.map { $0.upstreamLocation != nil }, [false, true, true, true, false])
        XCTAssertEqual(plan.sites.first?.routes.last?.raises, 502)
        XCTAssertEqual(plan.notProbed.map(\.location.line), [])
        XCTAssertTrue(plan.rewrites.contains { $0.reason == "listen 443 ssl http2: 127.0.0.1:8443 (ssl, http2 dropped: plain HTTP)" })
    }

    /// With a certificate to serve, a `listen … ssl` keeps TLS for every server on its port, as
    /// in nginx, and the certificate and key are the sandbox's; other TLS files and asking
    /// visitors for theirs go.
    func testATLSListenKeepsTLSWithTheSandboxsCertificate() throws {
        let (plan, copy) = try plan(
            """
            events {}
            http {
                server {
                    listen 80; listen 443 ssl http2;
                    server_name shop.example.com;
                    ssl_certificate /etc/letsencrypt/live/shop/fullchain.pem;
                    ssl_certificate_key /etc/letsencrypt/live/shop/privkey.pem;
                    ssl_client_certificate /etc/ssl/clients.pem; ssl_verify_client optional;
                    location / { proxy_pass http://10.0.0.5:8080; }
                }
                server { listen 443; server_name other.example.com; location / { return 200; } }
            }
            """, certificate: true)
        XCTAssertEqual(
            plan.sites.map { "\($0.host):\($0.port) \($0.tls)" }, ["shop.example.com:8080 false", "shop.example.com:8443 true", "other.example.com:8443 true"])
        XCTAssertTrue(copy.contains("listen 127.0.0.1:8443 ssl;"), copy)
        XCTAssertTrue(copy.contains("ssl_certificate /sandbox/tls/c.pem;"), copy)
        XCTAssertTrue(copy.contains("ssl_certificate_key /sandbox/tls/k.pem;"), copy)
        XCTAssertFalse(copy.contains("clients.pem") || copy.contains("ssl_verify_client"), copy)
        XCTAssertTrue(
            plan.rewrites.contains { $0.reason == "listen 443 ssl http2: 127.0.0.1:8443 ssl (http2 dropped: TLS kept, with the sandbox's certificate)" })
    }

    /// Each regular expression's location is asked for by a path nginx really routes to it:
    /// one no earlier expression, exact or `^~` location takes, inside the enclosing prefix.
    func testRegularExpressionsAreAskedForByAPathRoutedToThem() throws {
        let (plan, _) = try plan(
            """
            events {}
            http {
                server {
                    listen 80;
                    location ^~ /static/ { root /var/www; }
                    location ~ ^/api/v1/ { return 204; }
                    location ~ ^/api/(v1|v2)/ { proxy_pass http://app:8080; }
                    location ~* \\.(?:css|js)$ { expires 1d; }
                    location /app/ { location ~ \\.php$ { fastcgi_pass 127.0.0.1:9000; } }
                    location ~ (?P<user>^/u/\\d+)$ { return 204; }
                    location ~ ^/api/v1/x { return 204; }
                }
            }
            """)
        let routes = plan.sites.first?.routes ?? []
        XCTAssertEqual(
            routes.map { "\($0.location.line) \($0.path)" },
            ["3 /", "5 /static/", "6 /api/v1/", "7 /api/v2/", "8 /a.css", "9 /app/", "9 /app/a.php", "10 /u/1"])
        XCTAssertEqual(routes.map { $0.upstreamLocation != nil }, [false, false, false, true, false, false, true, false])
        XCTAssertEqual(plan.notProbed.map(\.location.line), [11], "every path it matches, ^/api/v1/ takes first")
    }

    func testWordsOfTimesAndAddresses() {
        XCTAssertEqual(
            ["80", "*:80", "[::]:80", "0.0.0.0:80", "127.0.0.1", "10.0.0.1:8443", "[::1]:8443", "unix:/run/x.sock"].map(NginxSandboxPlanner.portKey),
            ["80", "80", "80", "80", "127.0.0.1:80", "10.0.0.1:8443", "[::1]:8443", "unix:/run/x.sock"])
        XCTAssertEqual(
            ["http://app", "http://app:8080/x", "https://unix:/run/a.sock:/x", "$backend"].map(NginxSandboxPlanner.authority),
            ["app", "app:8080", "unix:/run/a.sock:", nil])
        XCTAssertEqual(["60", "60s", "1m", "500ms", "2h", "x"].map(NginxSandboxPlanner.seconds), [60, 60, 60, 0.5, 7200, nil])
        // A template's `${BACKEND}` is no host name: the sandbox leaves it for nginx to refuse.
        XCTAssertEqual(
            ["app:8000", "10.0.0.5", "unix:/run/a.sock", "[::1]:80", "${BACKEND}", "$backend:80", "my_app"].map(NginxSandboxPlanner.couldResolve),
            [true, true, true, true, false, false, true])
        XCTAssertEqual(["consul:53", "8.8.8.8", "[::1]", "dns.local", "2001:db8::1"].map(NginxSandboxPlanner.isHostName), [true, false, false, true, false])
    }

    func testAnIncludeCycleStopsTheRunAndAMissingIncludeIsLeftToNginx() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(["conf.d/a.conf": "include \(folder.path)/conf.d/*.conf;\n"])
        let (cycle, _) = try plan("events {}\nhttp { include \(folder.path)/conf.d/*.conf; }\n")
        XCTAssertEqual(Set(cycle.blockingFindings.map(\.rule)), ["nginx.include-cycle"])
        let (missing, _) = try plan("events {}\nhttp { include /nonexistent/detour.conf; }\n")
        XCTAssertEqual(missing.blockingFindings.map(\.rule), [], "nginx's own test says it, at its line")
        XCTAssertEqual(missing.rewrites.map(\.text).filter { $0.hasSuffix("/nonexistent/detour.conf") }, ["/sandbox/root/nonexistent/detour.conf"])
    }
}
