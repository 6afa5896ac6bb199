import DetourTestSupport
import Foundation
import XCTest

/// Each rule that predicts what visitors get, shown on the real HAProxy 2.6: the fixture's
/// configuration on a free port, from its folder (where its relative page paths start), with
/// its server dead or answering as the scenario needs.
final class HAProxyRuleRuntimeTests: XCTestCase {
    private var running: [ServerProcess] = []
    private var nginx: [NginxServer] = []
    private var folders: [TemporaryFolder] = []

    override func tearDown() {
        running.forEach { $0.stop() }
        nginx.forEach { $0.stop() }
        folders.forEach { $0.remove() }
    }

    /// Starts the scenario with `server` as its backend's address and `extra` lines added to
    /// its frontend; the port visitors use.
    private func start(_ scenario: String, server: String? = nil, extra: String = "") throws -> Int {
        let folder = HAProxyRuleFixtureTests.root.appendingPathComponent(scenario)
        let port = LoopbackPort.free()
        var config = try String(contentsOf: folder.appendingPathComponent("haproxy.cfg"), encoding: .utf8)
        config = config.replacingOccurrences(of: "bind 127.0.0.1:8080\n", with: "bind 127.0.0.1:\(port)\n\(extra)")
        config = config.replacingOccurrences(of: "127.0.0.1:9000", with: server ?? "127.0.0.1:\(LoopbackPort.free())")
        let state = try TemporaryFolder(files: ["haproxy.cfg": config])
        folders.append(state)
        let haproxy = try ServerProcess(
            executable: RequiredTool.find("haproxy"), ["-db", "-f", state.path + "/haproxy.cfg"], in: folder,
            log: state.url.appendingPathComponent("haproxy.log"))
        running.append(haproxy)
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), haproxy.log)
        return port
    }

    private func visit(_ port: Int, _ path: String = "/cart") -> String {
        LoopbackPort.exchange(port, "GET \(path) HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n") ?? ""
    }

    /// The answer once the health check has taken the dead server down (a redirect that
    /// waits for `nbsrv` to reach 0), within five seconds.
    private func visitOnceDown(_ port: Int, _ path: String) -> String {
        var answer = visit(port, path)
        for _ in 0..<50 where !answer.hasPrefix("HTTP/1.1 302") {
            Thread.sleep(forTimeInterval: 0.1)
            answer = visit(port, path)
        }
        return answer
    }

    /// A frontend's errorloc for a code its backend answers itself (an errorfile from its
    /// defaults) is never used: the backend's page goes out with its status.
    func testAnErrorlocShadowedByTheBackendsOwnPageAnswersNobody() throws {
        let answer = visit(try start("errorloc-redirect-shadowed-near-miss"))
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 503") || answer.hasPrefix("HTTP/1.0 503"), String(answer.prefix(200)))
        XCTAssertTrue(answer.contains("detour-page-503"), answer)
    }

    func testAnErrorlocRedirectLosesTheStatusAndLeadsBackToTheDeadBackend() throws {
        let port = try start("errorloc-redirect-hit")
        let answer = visit(port)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 302"), "a redirect, not 503: \(answer.prefix(200))")
        XCTAssertTrue(answer.lowercased().contains("location: /errors/503.html"), answer)
        let page = visit(port, "/errors/503.html")
        XCTAssertTrue(
            page.hasPrefix("HTTP/1.1 302") && page.lowercased().contains("location: /errors/503.html"),
            "the page's own request reaches the dead backend and is sent to itself: \(page.prefix(200))")
        let kept = visit(try start("errorloc-redirect-near-miss"))
        XCTAssertTrue(kept.hasPrefix("HTTP/1.1 503") || kept.hasPrefix("HTTP/1.0 503"), String(kept.prefix(200)))
        XCTAssertTrue(kept.contains("detour-page-503"), kept)
    }

    /// The scenario started with its app dead: a visitor on `path` is sent to the maintenance
    /// page once the health check has seen it; what the page's own request gets.
    private func maintenancePage(_ scenario: String, from path: String = "/cart", file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let port = try start(scenario)
        let redirect = visitOnceDown(port, path)
        XCTAssertTrue(
            redirect.lowercased().contains("location: /errors/503.html"),
            "\(scenario): visitors are sent to the page once the app is down: \(redirect.prefix(200))", file: file, line: line)
        return visit(port, "/errors/503.html")
    }

    private func assertServed(_ page: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(page.hasPrefix("HTTP/1.1 200") && page.contains("detour-page-503"), "the page is served: \(page.prefix(200))", file: file, line: line)
    }

    func testARedirectedPageBehindAuthIsRefused() throws {
        let page = try maintenancePage("error-page-protected-hit", from: "/public/cart")
        XCTAssertTrue(page.hasPrefix("HTTP/1.1 401"), "the page itself asks for a password: \(page.prefix(200))")
        XCTAssertFalse(page.contains("detour-page-503"))
        assertServed(try maintenancePage("error-page-protected-near-miss", from: "/public/cart"))
    }

    func testARedirectedPageRefusedByItsBackendIsRefused() throws {
        let page = try maintenancePage("error-page-protected-backend-hit")
        XCTAssertTrue(page.hasPrefix("HTTP/1.1 403"), "the backend the page is routed to refuses it: \(page.prefix(200))")
        XCTAssertFalse(page.contains("detour-page-503"))
        assertServed(try maintenancePage("error-page-protected-backend-near-miss"))
    }

    func testARedirectThatCatchesItsOwnPageLoops() throws {
        let page = try maintenancePage("redirect-loop-hit")
        XCTAssertTrue(
            page.hasPrefix("HTTP/1.1 302") && page.lowercased().contains("location: /errors/503.html"),
            "the page's own request is sent to itself: \(page.prefix(200))")
        assertServed(try maintenancePage("redirect-loop-near-miss"))
    }

    func testAnErrorlocPageOnAHostRoutedSiteLeadsBackToTheDeadBackend() throws {
        let port = try start("errorloc-redirect-host-hit")
        let answer = visit(port)
        XCTAssertTrue(
            answer.hasPrefix("HTTP/1.1 302") && answer.lowercased().contains("location: /errors/503.html"), "a redirect, not 503: \(answer.prefix(200))")
        let page = visit(port, "/errors/503.html")
        XCTAssertTrue(
            page.hasPrefix("HTTP/1.1 302") && page.lowercased().contains("location: /errors/503.html"),
            "the page's own request has the same Host, reaches the dead backend and is sent to itself: \(page.prefix(200))")
        let elsewhere = LoopbackPort.exchange(port, "GET /errors/503.html HTTP/1.1\r\nHost: blog.test\r\nConnection: close\r\n\r\n") ?? ""
        XCTAssertTrue(elsewhere.hasPrefix("HTTP/1.1 200"), "another Host is routed elsewhere: \(elsewhere.prefix(200))")
    }

    func testAnErrorlocPageRoutedElsewhereIsServedButStillAfterARedirect() throws {
        let port = try start("errorloc-redirect-routed-hit")
        let answer = visit(port)
        XCTAssertTrue(
            answer.hasPrefix("HTTP/1.1 302") && answer.lowercased().contains("location: /errors/503.html"), "still a redirect, not 503: \(answer.prefix(200))")
        assertServed(visit(port, "/errors/503.html"))
    }

    func testAnEmptyErrorfileAnswersNothing() throws {
        let answer = visit(try start("errorfile-invalid-hit"))
        XCTAssertEqual(answer, "", "no server up: HAProxy sends the empty 503 file, that is nothing, and closes")
    }

    func testAnErrorfileWithAnotherStatusLineIsSentAsWritten() throws {
        let answer = visit(try start("errorfile-status-line-hit"))
        XCTAssertTrue(answer.hasPrefix("HTTP/1.0 200") || answer.hasPrefix("HTTP/1.1 200"), "the outage goes out as 200: \(answer.prefix(200))")
    }

    func testAnOversizedErrorfileBecomesHAProxysOwn500() throws {
        let calm = visit(try start("errorfile-oversized-hit"))
        XCTAssertTrue(calm.hasPrefix("HTTP/1.0 503") || calm.hasPrefix("HTTP/1.1 503"), "without header rewriting the page goes out: \(calm.prefix(100))")
        XCTAssertTrue(running[0].log.contains("runs over the buffer space reserved to headers rewriting"), "a real start warns: \(running[0].log)")
        let padding = String(repeating: "p", count: 600)
        let rewritten = visit(try start("errorfile-oversized-hit", extra: "    http-after-response set-header X-Padding \(padding)\n"))
        XCTAssertTrue(
            rewritten.hasPrefix("HTTP/1.0 500") || rewritten.hasPrefix("HTTP/1.1 500"),
            "an http-after-response header that does not fit: \(rewritten.prefix(200))")
        XCTAssertFalse(rewritten.contains("xxxxxxxxxx"), "the page is gone")
    }

    func testAnUncoveredCodeGetsHAProxysBuiltInPage() throws {
        let answer = visit(try start("code-not-covered-hit"))
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 503"), String(answer.prefix(200)))
        XCTAssertTrue(answer.contains("No server is available to handle this request."), "HAProxy's own page: \(answer)")
        XCTAssertFalse(answer.contains("detour-page-503"))
        // The near miss: the backend's page answers.
        XCTAssertTrue(visit(try start("code-not-covered-near-miss")).contains("detour-page-503"))
    }

    /// Every request meets a redirect without a condition, or the stats page: nothing reaches
    /// the dead backend. A deny before the redirect, or a condition on it, lets HAProxy's own
    /// pages through.
    func testAFrontendThatAnswersEveryRequestItselfMeetsNoError() throws {
        let redirecting = try start("code-not-covered-redirect-guarded-near-miss")
        for path in ["/cart", "/admin"] { XCTAssertTrue(visit(redirecting, path).hasPrefix("HTTP/1.1 301"), path) }
        let stats = visit(try start("code-not-covered-stats-near-miss"), "/any/path")
        XCTAssertTrue(stats.hasPrefix("HTTP/1.1 200") && stats.contains("Statistics Report"), String(stats.prefix(300)))
        let statsPath = try start("code-not-covered-stats-hit")
        XCTAssertTrue(visit(statsPath, "/haproxy?stats").hasPrefix("HTTP/1.1 200"))
        XCTAssertTrue(visit(statsPath, "/any/path").hasPrefix("HTTP/1.1 503"), "no backend: HAProxy's own 503")
        let guarded = try start("code-not-covered-redirect-guarded-hit")
        XCTAssertTrue(visit(guarded, "/admin").hasPrefix("HTTP/1.1 403"))
        XCTAssertTrue(visit(guarded, "/cart").hasPrefix("HTTP/1.1 503"))
    }

    /// A tcp frontend whose backend is http speaks HTTP to visitors: a dead server gets
    /// HAProxy's own 503 page.
    func testATCPFrontendBeforeAnHTTPBackendAnswersWithHAProxysPages() throws {
        let answer = visit(try start("code-not-covered-tcp-frontend-hit"))
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 503"), String(answer.prefix(200)))
        XCTAssertTrue(answer.contains("No server is available to handle this request."), "HAProxy's own page: \(answer)")
    }

    func testABackendsOwn500PassesThrough() throws {
        let appPort = LoopbackPort.free()
        let upstream = try NginxServer.application(port: appPort, status: 500, body: "Traceback: app-internal-detail")
        nginx.append(upstream)
        XCTAssertTrue(LoopbackPort.waitUntilOpen(appPort), upstream.errorLog)
        let passed = visit(try start("upstream-errors-pass-through-hit", server: "127.0.0.1:\(appPort)"))
        XCTAssertTrue(passed.hasPrefix("HTTP/1.1 500"), String(passed.prefix(200)))
        XCTAssertTrue(passed.contains("Traceback: app-internal-detail"), "the application's own body reaches visitors: \(passed)")
        let redirected = visit(try start("upstream-errors-pass-through-redirected-near-miss", server: "127.0.0.1:\(appPort)"))
        XCTAssertTrue(redirected.hasPrefix("HTTP/1.1 301"), "sent to https before routing: \(redirected.prefix(200))")
        let conditional = visit(try start("upstream-errors-pass-through-status-set-hit", server: "127.0.0.1:\(appPort)"))
        XCTAssertTrue(conditional.hasPrefix("HTTP/1.1 500"), "a set-status for another status leaves the 500: \(conditional.prefix(200))")
        XCTAssertTrue(conditional.contains("Traceback: app-internal-detail"), conditional)
        // An unconditional set-status: the application's answer leaves, but never as a 5xx.
        let rewritten = visit(try start("upstream-errors-pass-through-status-set-near-miss", server: "127.0.0.1:\(appPort)"))
        XCTAssertTrue(rewritten.hasPrefix("HTTP/1.1 401"), String(rewritten.prefix(200)))
        for scenario in ["upstream-errors-pass-through-near-miss", "upstream-errors-pass-through-frontend-near-miss"] {
            let replaced = visit(try start(scenario, server: "127.0.0.1:\(appPort)"))
            XCTAssertTrue(replaced.hasPrefix("HTTP/1.1 500") || replaced.hasPrefix("HTTP/1.0 500"), "\(scenario): \(replaced.prefix(200))")
            XCTAssertTrue(replaced.contains("detour-page-500"), "\(scenario): \(replaced)")
            XCTAssertFalse(replaced.contains("app-internal-detail"))
        }
    }

    /// HAProxy looks for its own error's page in the backend, then the frontend: a frontend's
    /// errorfile answers where the backend has none, and is shadowed where it has one.
    func testAFrontendsOwnErrorfileAnswersWhereTheBackendHasNoPage() throws {
        let replaced = visit(try start("error-page-replaced-hit"))
        XCTAssertTrue(replaced.contains(" 503 "), String(replaced.prefix(200)))
        XCTAssertTrue(replaced.contains("No server is available to handle this request."), "the stock page: \(replaced)")
        XCTAssertFalse(replaced.contains("detour-page-503"))
        let shadowed = visit(try start("error-page-replaced-near-miss"))
        XCTAssertTrue(shadowed.contains("detour-page-503"), shadowed)
    }
}
