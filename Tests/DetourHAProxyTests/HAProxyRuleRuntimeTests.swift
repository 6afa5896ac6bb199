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
        let haproxy = try ServerProcess(executable: RequiredTool.find("haproxy"), ["-db", "-f", state.path + "/haproxy.cfg"], in: folder, log: state.url.appendingPathComponent("haproxy.log"))
        running.append(haproxy)
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), haproxy.log)
        return port
    }

    private func visit(_ port: Int) -> String {
        LoopbackPort.exchange(port, "GET /cart HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n") ?? ""
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
        XCTAssertTrue(rewritten.hasPrefix("HTTP/1.0 500") || rewritten.hasPrefix("HTTP/1.1 500"), "an http-after-response header that does not fit: \(rewritten.prefix(200))")
        XCTAssertFalse(rewritten.contains("xxxxxxxxxx"), "the page is gone")
    }

    func testAnUncoveredCodeGetsHAProxysBuiltInPage() throws {
        let answer = visit(try start("uncovered-code-hit"))
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 503"), String(answer.prefix(200)))
        XCTAssertTrue(answer.contains("No server is available to handle this request."), "HAProxy's own page: \(answer)")
        XCTAssertFalse(answer.contains("detour-page-503"))
        // The near miss: the backend's page answers.
        XCTAssertTrue(visit(try start("uncovered-code-near-miss")).contains("detour-page-503"))
    }

    func testABackendsOwn500PassesThrough() throws {
        let appPort = LoopbackPort.free()
        let upstream = try NginxServer(config: NginxServer.httpBlock("server { listen 127.0.0.1:\(appPort); location / { return 500 \"Traceback: app-internal-detail\"; } }"))
        nginx.append(upstream)
        XCTAssertTrue(LoopbackPort.waitUntilOpen(appPort), upstream.errorLog)
        let passed = visit(try start("backend-errors-pass-through-hit", server: "127.0.0.1:\(appPort)"))
        XCTAssertTrue(passed.hasPrefix("HTTP/1.1 500"), String(passed.prefix(200)))
        XCTAssertTrue(passed.contains("Traceback: app-internal-detail"), "the application's own body reaches visitors: \(passed)")
        let replaced = visit(try start("backend-errors-pass-through-near-miss", server: "127.0.0.1:\(appPort)"))
        XCTAssertTrue(replaced.contains("detour-page-500"), replaced)
        XCTAssertFalse(replaced.contains("app-internal-detail"))
    }
}
