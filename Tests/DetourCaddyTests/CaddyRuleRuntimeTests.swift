import DetourTestSupport
import Foundation
import XCTest

/// For each rule that predicts what visitors get, the real Caddy runs the hit fixture and
/// shows it, then runs the near miss and serves detour's page with the real status.
final class CaddyRuleRuntimeTests: XCTestCase {
    private var scratch: TemporaryFolder!

    override func setUpWithError() throws {
        scratch = try TemporaryFolder()
        try FileManager.default.copyItem(
            at: CaddyRuleFixtureTests.root.appendingPathComponent("pages/errors"), to: scratch.url.appendingPathComponent("errors"))
    }

    override func tearDown() {
        scratch.remove()
    }

    private enum Upstream {
        /// Nothing listens: Caddy raises 502 itself.
        case down
        /// The application answers every request with its own 503.
        case answering503
        /// It takes the connection and never answers.
        case silent
    }

    private func request(_ scenario: String, _ path: String = "/", upstream: Upstream, followRedirects: Bool = true) throws -> HTTPResponse {
        let port = LoopbackPort.free()
        let silent = upstream == .silent ? try FakeUpstream(.silent) : nil
        defer { silent?.stop() }
        let upstreamPort = silent?.port ?? LoopbackPort.free()
        var config = try String(contentsOf: CaddyRuleFixtureTests.root.appendingPathComponent(scenario).appendingPathComponent("Caddyfile"), encoding: .utf8)
        config = config.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
            .replacingOccurrences(of: "127.0.0.1:9000", with: "127.0.0.1:\(upstreamPort)")
            .replacingOccurrences(of: "/srv/detour", with: scratch.path)
        if upstream == .answering503 {
            config += "\nhttp://127.0.0.1:\(upstreamPort) {\n\trespond \"application maintenance body\" 503\n}\n"
        }
        let state = scratch.path + "/state-\(scenario)-\(port)"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try config.write(toFile: state + "/Caddyfile", atomically: true, encoding: .utf8)
        let caddy = try ServerProcess(
            "caddy", ["run", "--config", state + "/Caddyfile", "--adapter", "caddyfile"],
            environment: ["HOME": state, "XDG_DATA_HOME": state, "XDG_CONFIG_HOME": state], log: URL(fileURLWithPath: state + "/caddy.log"))
        defer { caddy.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), "\(scenario): caddy did not start: \(caddy.log)")
        if upstream == .answering503 { XCTAssertTrue(LoopbackPort.waitUntilOpen(upstreamPort), "\(scenario): the upstream site did not start") }
        return try HTTPClient.get("http://127.0.0.1:\(port)\(path)", followRedirects: followRedirects)
    }

    private func assertServesPage(_ response: HTTPResponse, _ status: Int, _ scenario: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, status, scenario, file: file, line: line)
        XCTAssertTrue(response.body.contains("detour-page-\(status)"), "\(scenario): \(response.body)", file: file, line: line)
    }

    private func assertEmptyBody(_ response: HTTPResponse, _ status: Int, _ scenario: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, status, scenario, file: file, line: line)
        XCTAssertEqual(response.body, "", scenario, file: file, line: line)
    }

    func testMissingPageFileLeavesTheStatusWithAnEmptyBody() throws {
        assertEmptyBody(try request("error-page-missing-file-hit", upstream: .down), 502, "hit")
        assertServesPage(try request("error-page-missing-file-near-miss", upstream: .down), 502, "near miss")
    }

    func testAPageFetchedFromTheFailingUpstreamFailsWithIt() throws {
        assertEmptyBody(try request("error-page-proxied-hit", upstream: .down), 502, "hit")
        assertServesPage(try request("error-page-proxied-near-miss", upstream: .down), 502, "near miss")
    }

    func testHandleErrorsWithoutFileServerSendsNoBody() throws {
        assertEmptyBody(try request("handle-errors-without-response-hit", upstream: .down), 502, "hit")
        assertServesPage(try request("handle-errors-without-response-near-miss", upstream: .down), 502, "near miss")
    }

    func testApplicationErrorsPassThroughWithoutHandleResponse() throws {
        let hit = try request("upstream-errors-pass-through-hit", upstream: .answering503)
        XCTAssertEqual(hit.status, 503)
        XCTAssertEqual(hit.body, "application maintenance body")
        // Caddy's own 502 for a dead upstream is still an error handle_errors answers.
        assertServesPage(try request("upstream-errors-pass-through-hit", upstream: .down), 502, "hit, dead upstream")
        assertServesPage(try request("upstream-errors-pass-through-near-miss", upstream: .answering503), 503, "near miss")
    }

    /// The page's own request inside handle_errors: a route runs its lines in order, only the
    /// first handle block that takes it runs, and handle_path strips its prefix.
    func testThePagesOwnRequestTakesTheRouteItsPathMatches() throws {
        assertEmptyBody(try request("error-page-proxied-route-hit", upstream: .down), 502, "the route's proxy takes the page")
        assertServesPage(try request("error-page-proxied-route-near-miss", upstream: .down), 502, "handle /app/* never sees it")
        assertEmptyBody(try request("error-page-missing-file-handle-path-hit", upstream: .down), 502, "stripped: no such file")
        assertServesPage(try request("error-page-missing-file-handle-path-near-miss", upstream: .down), 502, "stripped, in the right folder")
        let shadowed = try request("respond-shadows-file-server-route-hit", upstream: .down)
        XCTAssertEqual(shadowed.status, 500, "handle comes before route: the catch-all's respond")
        XCTAssertEqual(shadowed.body, "Something went wrong")
    }

    /// forward_auth: Caddy raises 502 when the auth service is down, and 504 only under a
    /// timeout set in its block.
    func testAnAuthServiceRaises502AndUnderATimeout504() throws {
        assertServesPage(try request("code-not-covered-forward-auth-near-miss", upstream: .down), 502, "auth service down")
        assertEmptyBody(try request("code-not-covered-forward-auth-hit", upstream: .silent), 504, "auth service silent past the timeout")
    }

    func testCopyResponsePassesTheApplicationsErrors() throws {
        let hit = try request("upstream-errors-pass-through-copy-response-hit", upstream: .answering503)
        XCTAssertEqual(hit.status, 503)
        XCTAssertEqual(hit.body, "application maintenance body")
    }

    /// `error … 503` is the only 5xx a maintenance site raises: its page answers every request,
    /// and a handle_errors that leaves 503 out answers none.
    func testAMaintenanceSwitchNeedsOnlyItsOwnStatusesPage() throws {
        assertEmptyBody(try request("code-not-covered-maintenance-hit", upstream: .down), 503, "503 left out")
        assertServesPage(try request("code-not-covered-maintenance-near-miss", "/cart", upstream: .down), 503, "near miss")
    }

    func testAProxyInAHandleBlockPassesTheApplicationsErrors() throws {
        let hit = try request("upstream-errors-pass-through-handle-hit", upstream: .answering503)
        XCTAssertEqual(hit.status, 503)
        XCTAssertEqual(hit.body, "application maintenance body")
        assertServesPage(try request("upstream-errors-pass-through-handle-hit", upstream: .down), 502, "Caddy's own 502 is an error handle_errors answers")
    }

    func testAPageImportedIntoHandleErrorsFromTheUpstreamFailsWithIt() throws {
        assertEmptyBody(try request("error-page-proxied-import-hit", upstream: .down), 502, "hit")
    }

    /// A site that only redirects and answers itself never sends a 5xx; one proxied route beside
    /// them does, with an empty body.
    func testOnlyASiteThatCanFailNeedsItsPages() throws {
        let health = try request("code-not-covered-static-only-near-miss", "/healthz", upstream: .down)
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(health.body, "ok")
        assertEmptyBody(try request("code-not-covered-static-only-hit", "/app/x", upstream: .down), 502, "the proxied route")
        // Caddy orders redir before reverse_proxy: with the upstream down, still the redirect.
        let redirected = try request("code-not-covered-redirect-first-near-miss", "/app/x", upstream: .down, followRedirects: false)
        XCTAssertEqual(redirected.status, 308)
        let fixed = try request("code-not-covered-fixed-answer-near-miss", "/app/x", upstream: .down)
        XCTAssertEqual(fixed.status, 503)
        XCTAssertEqual(fixed.body, "Down for maintenance")
        // Body first, then a word that is no status: Caddy fails the request instead.
        assertEmptyBody(try request("code-not-covered-fixed-answer-hit", "/app/x", upstream: .down), 500, "a status Caddy cannot send")
    }

    func testSiteWithoutHandleErrorsSendsNoBody() throws {
        assertEmptyBody(try request("code-not-covered-hit", upstream: .down), 502, "hit")
        assertEmptyBody(try request("code-not-covered-matcher-hit", upstream: .answering503), 503, "a code the matcher leaves out")
        assertServesPage(try request("code-not-covered-matcher-hit", upstream: .down), 502, "a code the matcher lets in")
        assertServesPage(try request("code-not-covered-near-miss", upstream: .answering503), 503, "near miss")
    }

    func testFileServerInHandleResponseAnswers200() throws {
        let hit = try request("error-page-soft-status-hit", upstream: .answering503)
        XCTAssertEqual(hit.status, 200, "crawlers see success")
        XCTAssertTrue(hit.body.contains("detour-page-503"), hit.body)
        assertServesPage(try request("error-page-soft-status-near-miss", upstream: .answering503), 503, "near miss")
    }

    func testOneArgumentErrorBecomes500() throws {
        assertServesPage(try request("error-status-as-message-hit", upstream: .answering503), 500, "hit: the status is lost")
        assertServesPage(try request("error-status-as-message-near-miss", upstream: .answering503), 503, "near miss")
    }

    func testAPageBehindAuthOrAMatcherReachesNoVisitor() throws {
        assertEmptyBody(try request("error-page-protected-hit", upstream: .down), 502, "basicauth in handle_errors: its 401 is swallowed")
        assertServesPage(try request("error-page-protected-near-miss", upstream: .down), 502, "basicauth elsewhere")
        assertEmptyBody(try request("error-page-protected-matcher-hit", upstream: .down), 502, "a matcher 127.0.0.1 does not meet")
        assertServesPage(try request("error-page-protected-matcher-near-miss", upstream: .down), 502, "a fallback route")
        assertServesPage(try request("error-page-protected-status-block-near-miss", upstream: .down), 502, "a status matcher written as a block")
        assertServesPage(try request("error-page-protected-status-block-near-miss", upstream: .answering503), 503, "a status matcher written as a block")
        assertEmptyBody(try request("error-page-protected-respond-hit", upstream: .down), 403, "respond 403 replaces the page and its status")
        let worded = try request("error-page-protected-respond-near-miss", upstream: .down)
        XCTAssertEqual(worded.status, 403)
        XCTAssertEqual(worded.body, "Ask your administrator for access", "respond with a body: the site's own answer")
        assertEmptyBody(try request("error-page-protected-import-hit", upstream: .down), 502, "basicauth in the snippet handle_errors imports")
        assertServesPage(try request("error-page-protected-import-near-miss", upstream: .down), 502, "basicauth in the site's own routes")
    }

    func testRespondWithoutAMatcherShadowsFileServer() throws {
        let hit = try request("respond-shadows-file-server-hit", upstream: .down)
        XCTAssertEqual(hit.status, 502, "respond without a status keeps the error's")
        XCTAssertEqual(hit.body, "Something went wrong")
        assertServesPage(try request("respond-shadows-file-server-near-miss", upstream: .down), 502, "near miss")
    }

    func testTryFilesWithNoFileThereSendsNoBody() throws {
        assertEmptyBody(try request("error-page-missing-file-try-files-hit", upstream: .down), 502, "hit")
        assertServesPage(try request("error-page-missing-file-try-files-near-miss", upstream: .down), 502, "near miss")
    }
}
