import DetourTestSupport
import Foundation
import XCTest

/// Each rule that predicts what visitors get, shown on the real varnishd: the scenario's VCL on
/// a free port, its backend dead or an nginx answering with the application's error. One
/// varnishd at a time, stopped before anything else: while a jailed varnishd runs, Foundation
/// reaps none of the test's other children, a second varnishd included.
final class VarnishRuleRuntimeTests: XCTestCase {
    private var varnish: ServerProcess?
    private var applications: [NginxServer] = []
    private var folders: [TemporaryFolder] = []

    override func tearDown() {
        varnish?.stop()
        applications.forEach { $0.stop() }
        folders.forEach { $0.remove() }
    }

    /// What a visitor of `scenario` gets for `path`, varnishd stopped again after.
    private func answer(_ scenario: String, upstream: Int = LoopbackPort.free(), _ path: String = "/cart") throws -> String {
        let port = try start(scenario, upstream: upstream)
        defer { stopVarnish() }
        return visit(port, path)
    }

    private func stopVarnish() {
        varnish?.stop()
        varnish = nil
    }

    /// Starts the scenario in front of `upstream`; the port visitors use.
    private func start(_ scenario: String, upstream: Int = LoopbackPort.free()) throws -> Int {
        let state = try TemporaryFolder()
        folders.append(state)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: state.path)
        let config = try VarnishFixture.runnable(scenario, upstream: upstream, in: state.url)
        let port = LoopbackPort.free()
        stopVarnish()
        let started = try ServerProcess(
            "varnishd", ["-F", "-a", "127.0.0.1:\(port)", "-f", config.path, "-n", state.path + "/varnish"],
            log: state.url.appendingPathComponent("varnish.log"))
        varnish = started
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), started.log)
        return port
    }

    private func application(status: Int, body: String, port: Int = LoopbackPort.free()) throws -> Int {
        let app = try NginxServer.application(port: port, status: status, body: body)
        applications.append(app)
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), app.errorLog)
        return port
    }

    private func visit(_ port: Int, _ path: String = "/cart") -> String {
        LoopbackPort.exchange(port, "GET \(path) HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n") ?? ""
    }

    private func body(_ answer: String) -> String {
        answer.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    }

    func testAMissingPageGivesAnEmptyBody() throws {
        let missing = try answer("error-page-missing-file-hit")
        XCTAssertTrue(missing.hasPrefix("HTTP/1.1 503"), String(missing.prefix(200)))
        XCTAssertTrue(missing.contains("Content-Length: 0\r\n"), missing)
        XCTAssertEqual(body(missing), "")
        XCTAssertTrue(try answer("error-page-missing-file-near-miss").contains("detour-page-503"))
    }

    func testAnUncoveredCodeGetsTheGuruMeditationPage() throws {
        let guru = try answer("code-not-covered-hit")
        XCTAssertTrue(guru.hasPrefix("HTTP/1.1 503"), String(guru.prefix(200)))
        XCTAssertTrue(guru.contains("Guru Meditation"), guru)
        // The built-in VCL runs after the VCL's own part and sets its header over it.
        XCTAssertTrue(guru.contains("Retry-After: 5\r\n"), "the built-in VCL's header: \(guru)")
        let covered = try answer("code-not-covered-near-miss")
        XCTAssertTrue(covered.hasPrefix("HTTP/1.1 503"), String(covered.prefix(200)))
        XCTAssertTrue(covered.contains("detour-page-503"), covered)
    }

    /// A vcl_synth that returns before the built-in part sends no body at all.
    func testASynthWithoutABodyIsEmpty() throws {
        let closed = try answer("code-not-covered-synth-hit", "/closed")
        XCTAssertTrue(closed.hasPrefix("HTTP/1.1 503 Closed"), String(closed.prefix(200)))
        XCTAssertTrue(closed.contains("Content-Length: 0\r\n"), closed)
        XCTAssertEqual(body(closed), "")
        let covered = try answer("clean-site", "/closed")
        XCTAssertTrue(covered.hasPrefix("HTTP/1.1 503 Closed") && covered.contains("detour-page-503"), String(covered.prefix(300)))
    }

    /// A vcl_synth that chooses by the request (a CORS header for one origin) but writes no
    /// body either way: empty for every visitor; with the page read after the choice, the page.
    func testASynthChoosingByTheRequestIsEmptyEitherWay() throws {
        let port = try start("code-not-covered-request-choice-hit")
        for origin in ["", "Origin: https://shop.test\r\n"] {
            let closed = LoopbackPort.exchange(port, "GET /closed HTTP/1.1\r\nHost: shop.test\r\n\(origin)Connection: close\r\n\r\n") ?? ""
            XCTAssertTrue(closed.hasPrefix("HTTP/1.1 503 Closed"), String(closed.prefix(200)))
            XCTAssertEqual(body(closed), "", closed)
        }
        stopVarnish()
        let covered = try answer("code-not-covered-request-choice-near-miss", "/closed")
        XCTAssertTrue(covered.hasPrefix("HTTP/1.1 503 Closed") && covered.contains("detour-page-503"), String(covered.prefix(300)))
    }

    /// A pipe a page request reaches hands the application's answer over as it is; a
    /// websocket's pipe leaves page requests to the VCL's pages.
    func testAPipeForSomePathsPassesTheBackendsErrors() throws {
        let app = try application(status: 500, body: "Traceback: app-internal-detail")
        let port = try start("upstream-errors-pass-through-pipe-hit", upstream: app)
        let piped = visit(port, "/exports/orders.csv")
        XCTAssertTrue(piped.hasPrefix("HTTP/1.1 500"), String(piped.prefix(200)))
        XCTAssertTrue(piped.contains("Traceback: app-internal-detail"), piped)
        XCTAssertTrue(visit(port, "/cart").contains("detour-page-500"), "the other paths get the page")
        stopVarnish()
        let websocketOnly = try answer("upstream-errors-pass-through-pipe-near-miss", upstream: app, "/exports/orders.csv")
        XCTAssertTrue(websocketOnly.hasPrefix("HTTP/1.1 500") && websocketOnly.contains("detour-page-500"), String(websocketOnly.prefix(300)))
    }

    func testASoftStatusSendsThePageWith200() throws {
        let soft = try answer("error-page-soft-status-hit")
        XCTAssertTrue(soft.hasPrefix("HTTP/1.1 200"), String(soft.prefix(200)))
        XCTAssertTrue(soft.contains("detour-page-503"), soft)
        let kept = try answer("error-page-soft-status-near-miss")
        XCTAssertTrue(kept.hasPrefix("HTTP/1.1 503 Temporarily unavailable"), String(kept.prefix(200)))
    }

    func testTheBackendsOwn500PassesThrough() throws {
        let app = try application(status: 500, body: "Traceback: app-internal-detail")
        let passed = try answer("upstream-errors-pass-through-hit", upstream: app)
        XCTAssertTrue(passed.hasPrefix("HTTP/1.1 500"), String(passed.prefix(200)))
        XCTAssertTrue(passed.contains("Traceback: app-internal-detail"), passed)
        let replaced = try answer("upstream-errors-pass-through-near-miss", upstream: app)
        XCTAssertTrue(replaced.hasPrefix("HTTP/1.1 500"), String(replaced.prefix(200)))
        XCTAssertTrue(replaced.contains("detour-page-500"), replaced)
        XCTAssertFalse(replaced.contains("app-internal-detail"))
    }

    /// With a TTL on vcl_backend_error's page, the 503 stays for everyone once the backend is
    /// back; marked uncacheable, the next visitor reaches the backend.
    func testAnErrorWithATTLStaysInTheCache() throws {
        for (scenario, staysCached) in [("error-cached-hit", true), ("error-cached-near-miss", false)] {
            defer { stopVarnish() }
            let backend = LoopbackPort.free()
            let port = try start(scenario, upstream: backend)
            let first = visit(port)
            XCTAssertTrue(first.hasPrefix("HTTP/1.1 503") && first.contains("detour-page-503"), "\(scenario): \(first.prefix(300))")
            _ = try application(status: 200, body: "the shop is back", port: backend)
            if staysCached {
                // A hit: X-Varnish names this request and the one that stored the page.
                let second = visit(port)
                XCTAssertTrue(second.hasPrefix("HTTP/1.1 503") && second.contains("detour-page-503"), "\(scenario): \(second.prefix(300))")
                XCTAssertNotNil(second.range(of: #"X-Varnish: \d+ \d+\r\n"#, options: .regularExpression), "served from the cache: \(second.prefix(300))")
                XCTAssertFalse(second.contains("the shop is back"))
            } else {
                // Varnish waits a moment before it tries a backend that refused again.
                XCTAssertTrue(Poll.until(timeout: 15) { self.visit(port).contains("the shop is back") }, "\(scenario): the backend is reached again")
            }
        }
    }

    func testTheCleanSiteAnswersADeadBackendAndASynthWithItsPages() throws {
        let port = try start("clean-site")
        defer { stopVarnish() }
        XCTAssertTrue(visit(port).contains("detour-page-503"))
        let closed = visit(port, "/closed")
        XCTAssertTrue(closed.hasPrefix("HTTP/1.1 503 Closed"), String(closed.prefix(200)))
        XCTAssertTrue(closed.contains("detour-page-503"), closed)
    }
}
