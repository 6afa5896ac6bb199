import DetourTestSupport
import Foundation
import XCTest

/// The built 502 page behind a real nginx whose upstream is down, read by a real browser.
final class ErrorPageEndToEndTests: XCTestCase {
    private var site: TemporaryFolder!
    private var nginx: NginxServer?

    override func setUpWithError() throws {
        site = try SampleSite.shipped()
        let build = try ProcessRunner.detour(["build", "--quiet"], in: site.url)
        XCTAssertEqual(build.status, 0, build.stderr)
    }

    override func tearDown() {
        nginx?.stop()
        site.remove()
    }

    private func startNginx() throws -> Int {
        let port = LoopbackPort.free()
        let deadUpstream = LoopbackPort.free()
        let server = try NginxServer(
            config: NginxServer.httpBlock(
                """
                server {
                    listen 127.0.0.1:\(port);
                    error_page 502 /errors/502.html;
                    location / { proxy_pass http://127.0.0.1:\(deadUpstream); }
                    location /errors/ { root \(site.path)/public; internal; }
                }
                """))
        nginx = server
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), "nginx did not start: \(server.errorLog)")
        return port
    }

    func testNginxServesTheBrandedPageWithTheRealStatus() throws {
        let port = try startNginx()
        let response = try HTTPClient.get("http://127.0.0.1:\(port)/checkout?id=1")
        XCTAssertEqual(response.status, 502, "the visitor must see the real status, never 200")
        XCTAssertEqual(response.headers["content-type"], "text/html")
        XCTAssertTrue(response.body.contains("<h1>Bad Gateway</h1>"))
        XCTAssertTrue(response.body.contains("Example Hosting"))
        XCTAssertTrue(response.body.contains("<meta name=\"robots\" content=\"noindex,nofollow\">"))
    }

    func testBrowserRendersThePageWithoutFetchingAnythingElse() throws {
        let port = try startNginx()
        let dom = try Chromium.dumpDOM("http://127.0.0.1:\(port)/checkout")
        XCTAssertTrue(dom.contains("<h1>Bad Gateway</h1>"), dom)
        XCTAssertTrue(dom.contains("<svg"), "the logo is inline")
        XCTAssertTrue(dom.contains("href=\"https://help.example.com/codes/502/\""), dom)

        // Everything the browser asked nginx for: the page itself and, at most, a favicon.
        let paths = nginx!.accessLog.split(separator: "\n").compactMap { line -> String? in
            guard let request = line.split(separator: "\"").dropFirst().first else { return nil }
            return request.split(separator: " ").dropFirst().first.map(String.init)
        }
        XCTAssertTrue(paths.contains("/checkout"), nginx!.accessLog)
        XCTAssertEqual(paths.filter { $0 != "/checkout" && $0 != "/favicon.ico" }, [], "the error page made extra requests")
    }

    func testDetoursSnippetServesRealStatusRetryAfterAndNoStore() throws {
        // Install the pages where they are: install_path is the folder holding public's errors/.
        let siteFile = site.url.appendingPathComponent("content/site.yml")
        try (String(contentsOf: siteFile, encoding: .utf8) + "\ninstall_path: \(site.path)/public\n").write(to: siteFile, atomically: true, encoding: .utf8)
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: site.url).status, 0)
        let port = LoopbackPort.free()
        let appPort = LoopbackPort.free()
        let deadPort = LoopbackPort.free()
        let server = try NginxServer(
            config: NginxServer.httpBlock(
                """
                include \(site.path)/public/snippets/nginx-http.conf;
                server { listen 127.0.0.1:\(appPort); location / { return 503 "maintenance body from the app"; } }
                server {
                    listen 127.0.0.1:\(port);
                    include \(site.path)/public/snippets/nginx.conf;
                    location /app/ { proxy_pass http://127.0.0.1:\(appPort); include \(site.path)/public/snippets/nginx-proxy.conf; }
                    location / { proxy_pass http://127.0.0.1:\(deadPort); include \(site.path)/public/snippets/nginx-proxy.conf; }
                }
                """))
        nginx = server
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), server.errorLog)

        let down = try HTTPClient.get("http://127.0.0.1:\(port)/")
        XCTAssertEqual(down.status, 502)
        XCTAssertTrue(down.body.contains("<h1>Bad Gateway</h1>"))
        XCTAssertEqual(down.headers["retry-after"], "30")
        XCTAssertEqual(down.headers["cache-control"], "no-store")

        let maintenance = try HTTPClient.get("http://127.0.0.1:\(port)/app/")
        XCTAssertEqual(maintenance.status, 503, "the application's own 503 keeps its status")
        XCTAssertTrue(maintenance.body.contains("<h1>Service Unavailable</h1>"), "and gets detour's page: \(maintenance.body)")
        XCTAssertEqual(maintenance.headers["retry-after"], "120")

        let check = try ProcessRunner.detour(
            ["check", "nginx", server.folder.url.appendingPathComponent("nginx.conf").path, "--pages", "public/errors"], in: site.url)
        // Only the stand-in application's server, which has no error pages, may be reported.
        let findings = check.stderr.split(separator: "\n").filter { $0.contains(": warning: [") || $0.contains(": error: [") }
        XCTAssertEqual(findings.count, 1, check.stderr)
        XCTAssertTrue(
            findings.allSatisfy { $0.contains("[nginx.code-not-covered]") && $0.contains("'listen 127.0.0.1:\(appPort)'") },
            "detour's own snippet checks clean: \(check.stderr)")
    }

    func testInternalErrorFolderIsNotReachableDirectly() throws {
        let port = try startNginx()
        let direct = try HTTPClient.get("http://127.0.0.1:\(port)/errors/502.html")
        XCTAssertEqual(direct.status, 404, "an internal location answers direct requests with 404")
        XCTAssertFalse(direct.body.contains("Bad Gateway"))
    }
}
