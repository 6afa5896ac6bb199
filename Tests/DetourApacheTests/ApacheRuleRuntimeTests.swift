import DetourTestSupport
import Foundation
import XCTest

/// Each rule that predicts what visitors get, shown on the real Apache 2.4: the fixture's
/// configuration on a free port, its upstream dead or answering as the scenario needs.
final class ApacheRuleRuntimeTests: XCTestCase {
    private var running: [ServerProcess] = []
    private var upstreams: [NginxServer] = []
    private var folders: [TemporaryFolder] = []

    override func tearDown() {
        running.forEach { $0.stop() }
        upstreams.forEach { $0.stop() }
        folders.forEach { $0.remove() }
    }

    /// Starts the scenario; the port visitors use. `upstream`: the application's port (default: nothing listens).
    private func start(_ scenario: String, upstream: Int? = nil) throws -> Int {
        let port = LoopbackPort.free()
        let state = try TemporaryFolder()
        folders.append(state)
        let environment = ApacheRuleFixtureTests.environment(state: state.path, port: port, upstream: upstream ?? LoopbackPort.free())
        let config = ApacheRuleFixtureTests.root.appendingPathComponent(scenario).appendingPathComponent("apache.conf").path
        let apache = try ServerProcess(
            "apache2", ["-f", config, "-DFOREGROUND"], environment: environment, log: state.url.appendingPathComponent("apache.log"))
        running.append(apache)
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), apache.log + ((try? state.read("error.log")) ?? ""))
        return port
    }

    private func visit(_ port: Int, _ path: String = "/cart") -> String {
        LoopbackPort.exchange(port, "GET \(path) HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n") ?? ""
    }

    /// Apache's own page for a failed ErrorDocument: 503, and the sentence it adds.
    private func assertBuiltInAfterFailedPage(_ answer: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 503"), String(answer.prefix(200)), file: file, line: line)
        XCTAssertTrue(answer.contains("error was encountered while trying to use an ErrorDocument"), answer, file: file, line: line)
        XCTAssertFalse(answer.contains("detour-page-503"), file: file, line: line)
    }

    func testAMissingPageGivesApachesOwnPage() throws {
        assertBuiltInAfterFailedPage(visit(try start("error-page-missing-file-hit")))
        XCTAssertTrue(visit(try start("error-page-missing-file-near-miss")).contains("detour-page-503"))
    }

    func testAURLTargetRedirectsAndLosesTheStatus() throws {
        let answer = visit(try start("error-document-url-hit"))
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 302"), String(answer.prefix(200)))
        XCTAssertTrue(answer.contains("Location: https://status.example.com/"), answer)
    }

    func testATargetWithoutSlashIsSentAsText() throws {
        let answer = visit(try start("error-document-text-hit"))
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 503"), String(answer.prefix(200)))
        XCTAssertTrue(answer.hasSuffix("\r\n\r\nerrors/503.html"), "the words are the page: \(answer)")
        XCTAssertTrue(visit(try start("error-document-text-near-miss")).contains("detour-page-503"), "a quoted path is a path")
    }

    /// A `<Location>` page over the only proxied path replaces the server-wide one for every
    /// request that can meet the error: the server's text is never sent.
    func testAPageOverTheProxiedPathShadowsTheServersText() throws {
        let closes = try FakeUpstream(.closes)
        defer { closes.stop() }
        let answer = visit(try start("error-document-text-shadowed-near-miss", upstream: closes.port), "/app/cart")
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 502"), String(answer.prefix(200)))
        XCTAssertTrue(answer.contains("detour-page-502"), answer)
    }

    func testAProxiedPageFailsWithTheUpstream() throws {
        assertBuiltInAfterFailedPage(visit(try start("error-page-proxied-hit")))
        XCTAssertTrue(visit(try start("error-page-proxied-near-miss")).contains("detour-page-503"))
    }

    /// A ProxyPass in `<Location />` is tried before the `ProxyPass /errors/ !` line; only a
    /// later `<Location /errors/>` with `ProxyPass "!"` keeps the pages here.
    func testALocationProxyPassTakesThePagesPastAnExclusionLine() throws {
        assertBuiltInAfterFailedPage(visit(try start("error-page-proxied-section-hit")))
        XCTAssertTrue(visit(try start("error-page-proxied-section-near-miss")).contains("detour-page-503"))
    }

    /// mod_rewrite runs after mod_proxy's ProxyPass lines: `ProxyPass /errors/ !` does not stop
    /// a `[P]` rule, a `RewriteRule ^/errors/ - [L]` before it does.
    func testARewriteRuleProxiesThePagesPastAnExclusionLine() throws {
        assertBuiltInAfterFailedPage(visit(try start("error-page-proxied-rewrite-hit")))
        XCTAssertTrue(visit(try start("error-page-proxied-rewrite-near-miss")).contains("detour-page-503"))
    }

    /// A `<Location>` that refuses the pages refuses them before the `[P]` rule's proxy is
    /// asked: with the application up, the page's own URI is still a 403, never its answer.
    func testARefusalComesBeforeTheProxyThatTakesThePages() throws {
        let application = try FakeUpstream(.byPath)
        defer { application.stop() }
        let port = try start("error-page-protected-proxied-hit", upstream: application.port)
        let page = visit(port, "/errors/503.html")
        XCTAssertTrue(page.hasPrefix("HTTP/1.1 403"), String(page.prefix(200)))
        XCTAssertFalse(page.contains("app-ok"), page)
        XCTAssertTrue(visit(port, "/cart").contains("app-ok"), "the rule proxies the rest")
    }

    func testAnUncoveredCodeGetsApachesOwnPage() throws {
        let answer = visit(try start("code-not-covered-hit"))
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 503"), String(answer.prefix(200)))
        XCTAssertTrue(answer.contains("<h1>Service Unavailable</h1>"), "Apache's own page: \(answer)")
        XCTAssertTrue(visit(try start("code-not-covered-near-miss")).contains("detour-page-503"))
    }

    /// Where an ErrorDocument is written decides whether a proxied request gets it.
    func testOnlyAPageInLocationSlashAnswersAProxiedRequest() throws {
        let inDirectory = visit(try start("code-not-covered-directory-hit"))
        XCTAssertTrue(inDirectory.hasPrefix("HTTP/1.1 503"), String(inDirectory.prefix(200)))
        XCTAssertTrue(inDirectory.contains("<h1>Service Unavailable</h1>"), "a <Directory> page is not used for a proxied request: \(inDirectory)")
        let inLocation = visit(try start("code-not-covered-location-near-miss"))
        XCTAssertTrue(inLocation.hasPrefix("HTTP/1.1 503"), String(inLocation.prefix(200)))
        XCTAssertTrue(inLocation.contains("detour-page-503"), inLocation)
    }

    /// An ErrorDocument in a `<Location>` answers the proxied requests under it, and only those;
    /// one in `<If>` answers every request its condition takes.
    func testASectionsPageAnswersTheRequestsItTakes() throws {
        let elsewhere = visit(try start("code-not-covered-section-hit"), "/app/cart")
        XCTAssertTrue(elsewhere.contains("<h1>Service Unavailable</h1>"), "<Location /admin/> does not take /app/: \(elsewhere)")
        let over = visit(try start("code-not-covered-section-near-miss"), "/app/cart")
        XCTAssertTrue(over.hasPrefix("HTTP/1.1 503"), String(over.prefix(200)))
        XCTAssertTrue(over.contains("detour-page-503"), over)
        let conditional = visit(try start("code-not-covered-if-near-miss"))
        XCTAssertTrue(conditional.hasPrefix("HTTP/1.1 503"), String(conditional.prefix(200)))
        XCTAssertTrue(conditional.contains("detour-page-503"), conditional)
    }

    /// A site that redirects every path answers nothing else, its error pages' paths included.
    func testARedirectOnlySiteAnswersEveryPathWithTheRedirect() throws {
        let port = try start("error-document-url-redirect-only-near-miss")
        for path in ["/cart", "/errors/500.html", "/index.php?page=1"] {
            let answer = visit(port, path)
            XCTAssertTrue(answer.hasPrefix("HTTP/1.1 301"), "\(path): \(answer.prefix(200))")
            XCTAssertFalse(answer.contains("status.example.com"), answer)
        }
    }

    func testAProtectedPageIsRefusedToVisitors() throws {
        assertBuiltInAfterFailedPage(visit(try start("error-page-protected-hit")))
        XCTAssertTrue(visit(try start("error-page-protected-near-miss")).contains("detour-page-503"))
    }

    func testTheUpstreamsOwn500PassesThrough() throws {
        let appPort = LoopbackPort.free()
        let app = try NginxServer.application(port: appPort, status: 500, body: "Traceback: app-internal-detail")
        upstreams.append(app)
        XCTAssertTrue(LoopbackPort.waitUntilOpen(appPort), app.errorLog)
        let passed = visit(try start("upstream-errors-pass-through-hit", upstream: appPort))
        XCTAssertTrue(passed.hasPrefix("HTTP/1.1 500"), String(passed.prefix(200)))
        XCTAssertTrue(passed.contains("Traceback: app-internal-detail"), passed)
        let replaced = visit(try start("upstream-errors-pass-through-near-miss", upstream: appPort))
        XCTAssertTrue(replaced.contains("detour-page-500"), replaced)
        XCTAssertFalse(replaced.contains("app-internal-detail"))
    }

    /// A `[P]` RewriteRule proxies as ProxyPass does: the application's 500 passes through, and
    /// a silent upstream gets mod_proxy_http's 502 (never a 504), which the site's page answers.
    func testARewriteRuleThatProxiesPassesTheApplicationsErrors() throws {
        let appPort = LoopbackPort.free()
        let app = try NginxServer.application(port: appPort, status: 500, body: "Traceback: app-internal-detail")
        upstreams.append(app)
        XCTAssertTrue(LoopbackPort.waitUntilOpen(appPort), app.errorLog)
        let passed = visit(try start("upstream-errors-pass-through-rewrite-hit", upstream: appPort))
        XCTAssertTrue(passed.hasPrefix("HTTP/1.1 500"), String(passed.prefix(200)))
        XCTAssertTrue(passed.contains("Traceback: app-internal-detail"), passed)
        let silent = try FakeUpstream(.silent)
        defer { silent.stop() }
        let slow = visit(try start("upstream-errors-pass-through-rewrite-hit", upstream: silent.port))
        XCTAssertTrue(slow.hasPrefix("HTTP/1.1 502"), "mod_proxy_http's timeout is a 502: \(slow.prefix(200))")
        XCTAssertTrue(slow.contains("detour-page-502"), slow)
    }

    /// A `proxy:` handler proxies too: a dead FastCGI application gets Apache's 503, and a silent
    /// one its 504, for which this site has no page.
    func testAProxyHandlerRaises503And504() throws {
        let dead = visit(try start("code-not-covered-handler-hit"), "/app/index.php")
        XCTAssertTrue(dead.hasPrefix("HTTP/1.1 503"), String(dead.prefix(200)))
        XCTAssertTrue(dead.contains("detour-page-503"), dead)
        let silent = try FakeUpstream(.silent)
        defer { silent.stop() }
        let slow = visit(try start("code-not-covered-handler-hit", upstream: silent.port), "/app/index.php")
        XCTAssertTrue(slow.hasPrefix("HTTP/1.1 504"), "mod_proxy_fcgi's timeout is a 504: \(slow.prefix(200))")
        XCTAssertTrue(slow.contains("<h1>Gateway Timeout</h1>"), "Apache's own page: \(slow)")
    }
}
