import DetourTestSupport
import Foundation
import XCTest

/// For each rule that predicts a runtime failure, the real nginx runs the hit fixture and shows
/// that failure, then runs the near miss and serves detour's page with the real status.
final class NginxRuleRuntimeTests: XCTestCase {
    private var pages: TemporaryFolder!

    override func setUpWithError() throws {
        // A copy under the temp folder: nginx workers run as `nobody` and must read it.
        pages = try TemporaryFolder()
        try FileManager.default.copyItem(at: NginxRuleFixtureTests.root.appendingPathComponent("pages/errors"), to: pages.url.appendingPathComponent("errors"))
    }

    override func tearDown() {
        pages.remove()
    }

    private enum Upstream {
        /// Nothing listens: nginx raises 502 itself.
        case down
        /// The application answers every request with its own 503.
        case answering503
        /// An auth service (`/auth`: 204 with a session cookie, else 401), its sign-in form
        /// (`/signin`) and an application that fails with 502.
        case signInService
        /// An application that fails every path with its own 500 but its pages' (`/errors/`).
        case failingButServingPages
    }

    /// Starts nginx on the scenario's config and requests `path`.
    private func request(_ scenario: String, _ path: String = "/", headers: [String: String] = [:], upstream: Upstream) throws -> HTTPResponse {
        try withNginx(scenario, upstream: upstream) { port in try HTTPClient.get("http://127.0.0.1:\(port)\(path)", headers: headers) }
    }

    /// The status line nginx sends for `path`, read off the socket: URLSession would answer a
    /// 401's Basic challenge itself.
    private func statusLine(_ scenario: String, _ path: String = "/", upstream: Upstream) throws -> String {
        try rawResponse(scenario, path, upstream: upstream).components(separatedBy: "\r\n").first ?? ""
    }

    /// The response as sent, redirects not followed.
    private func rawResponse(_ scenario: String, _ path: String = "/", upstream: Upstream) throws -> String {
        try withNginx(scenario, upstream: upstream) { port in
            LoopbackPort.exchange(port, "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") ?? ""
        }
    }

    private func withNginx<Result>(_ scenario: String, upstream: Upstream, _ body: (Int) throws -> Result) throws -> Result {
        let port = LoopbackPort.free()
        let upstreamPort = LoopbackPort.free()
        var config = try String(contentsOf: NginxRuleFixtureTests.root.appendingPathComponent(scenario).appendingPathComponent("nginx.conf"), encoding: .utf8)
        config = config.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
            .replacingOccurrences(of: "127.0.0.1:9000", with: "127.0.0.1:\(upstreamPort)")
            .replacingOccurrences(of: "/srv/detour", with: pages.path)
            .replacingOccurrences(of: "http {", with: "http {\n    access_log {{PREFIX}}/access.log;")
        if upstream == .answering503 {
            config = config.replacingOccurrences(
                of: "http {", with: "http {\n    server { listen 127.0.0.1:\(upstreamPort); location / { return 503 \"application maintenance body\"; } }")
        }
        if upstream == .failingButServingPages {
            config = config.replacingOccurrences(
                of: "http {",
                with:
                    "http {\n    server { listen 127.0.0.1:\(upstreamPort); location /errors/ { return 200 \"application's own page\"; } location / { return 500 \"application error\"; } }"
            )
        }
        if upstream == .signInService {
            config = config.replacingOccurrences(
                of: "http {",
                with: """
                    http {
                        server {
                            listen 127.0.0.1:\(upstreamPort);
                            location = /auth { if ($http_cookie ~ "session=") { return 204; } return 401; }
                            location = /signin { return 200 "sign-in form"; }
                            location / { return 502 "application down"; }
                        }
                    """)
        }
        let nginx = try NginxServer(config: config)
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), "\(scenario): nginx did not start: \(nginx.errorLog)")
        return try body(port)
    }

    private func assertServesPage(_ response: HTTPResponse, _ status: Int, _ scenario: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.status, status, scenario, file: file, line: line)
        XCTAssertTrue(response.body.contains("detour-page-\(status)"), "\(scenario): \(response.body)", file: file, line: line)
    }

    func testMissingFileTurnsTheErrorInto404() throws {
        XCTAssertEqual(try request("error-page-missing-file-hit", upstream: .down).status, 404)
        assertServesPage(try request("error-page-missing-file-near-miss", upstream: .down), 502, "near miss")
    }

    func testRegexAliasBuiltFromCapturesIsFollowed() throws {
        XCTAssertEqual(try request("error-page-missing-file-regex-alias-hit", upstream: .down).status, 404)
        assertServesPage(try request("error-page-missing-file-regex-alias-near-miss", upstream: .down), 502, "near miss")
    }

    func testStatusVariableTargetIsFollowedPerCode() throws {
        XCTAssertEqual(try request("error-page-missing-file-status-variable-hit", upstream: .down).status, 404)
        assertServesPage(try request("error-page-missing-file-status-variable-near-miss", upstream: .down), 502, "near miss")
        assertServesPage(try request("error-page-missing-file-status-variable-near-miss", upstream: .answering503), 503, "near miss")
    }

    func testUndefinedNamedLocationAnswers500() throws {
        XCTAssertEqual(try request("error-page-undefined-named-location-hit", upstream: .answering503).status, 500)
        assertServesPage(try request("error-page-undefined-named-location-near-miss", upstream: .answering503), 503, "near miss")
    }

    func testNestedErrorPageDropsTheServerPages() throws {
        let hit = try request("inherited-error-page-dropped-hit", "/api/orders", upstream: .down)
        XCTAssertEqual(hit.status, 502)
        XCTAssertFalse(hit.body.contains("detour-page"), "nginx's own page, not detour's: \(hit.body)")
        assertServesPage(try request("inherited-error-page-dropped-near-miss", "/api/orders", upstream: .down), 502, "near miss")
    }

    func testErrorPageInsideIfDropsTheServerPagesWhenTheConditionHolds() throws {
        let debug = ["X-Debug": "1"]
        let hit = try request("inherited-error-page-dropped-in-if-hit", headers: debug, upstream: .answering503)
        XCTAssertEqual(hit.status, 503)
        XCTAssertTrue(hit.body.contains("application maintenance body"), hit.body)
        assertServesPage(try request("inherited-error-page-dropped-in-if-hit", upstream: .answering503), 503, "hit, condition false")
        assertServesPage(try request("inherited-error-page-dropped-in-if-near-miss", headers: debug, upstream: .answering503), 503, "near miss")
    }

    func testApplicationErrorsPassThroughWithoutIntercept() throws {
        let hit = try request("upstream-errors-pass-through-hit", upstream: .answering503)
        XCTAssertEqual(hit.status, 503)
        XCTAssertTrue(hit.body.contains("application maintenance body"), hit.body)
        assertServesPage(try request("upstream-errors-pass-through-near-miss", upstream: .answering503), 503, "near miss")
        // A named location nothing names: no request reaches its upstream.
        assertServesPage(try request("upstream-errors-pass-through-unnamed-near-miss", upstream: .answering503), 503, "unnamed near miss")
    }

    func testPageBehindTheDeadUpstreamFailsToo() throws {
        let hit = try request("error-page-proxied-hit", upstream: .down)
        XCTAssertEqual(hit.status, 502)
        XCTAssertFalse(hit.body.contains("detour-page"), hit.body)
        assertServesPage(try request("error-page-proxied-near-miss", upstream: .down), 502, "near miss")
        // A front controller's `rewrite … last` sends the page's request on to the upstream too.
        let rewritten = try request("error-page-proxied-rewrite-hit", upstream: .down)
        XCTAssertEqual(rewritten.status, 502)
        XCTAssertFalse(rewritten.body.contains("detour-page"), rewritten.body)
        assertServesPage(try request("error-page-proxied-rewrite-near-miss", upstream: .down), 502, "rewrite near miss")
    }

    /// A page whose file is missing, in a location that hands what it lacks to the application
    /// (`try_files $uri @app`, Rails' `if (!-f $request_filename) { proxy_pass … }`): the page
    /// is asked of the dead upstream, not answered 404; with the file there, it is served.
    func testAMissingPageIsAskedOfTheUpstreamWhereMissingFilesGoThere() throws {
        for scenario in ["error-page-proxied-missing-file", "error-page-proxied-missing-file-if"] {
            let hit = try request(scenario + "-hit", upstream: .down)
            XCTAssertEqual(hit.status, 502, scenario)
            XCTAssertFalse(hit.body.contains("detour-page"), hit.body)
            assertServesPage(try request(scenario + "-near-miss", upstream: .down), 502, scenario + " near miss")
        }
    }

    /// A page the application serves, asked of it where it failed another path: nginx sends
    /// it as 200, as check says (verify's fake upstream, failing every path at once, cannot show it).
    func testStatusOverrideOfAPageTheApplicationServesTurnsItsErrorIntoSuccess() throws {
        let hit = try request("error-page-soft-status-proxied-page-hit", "/orders", upstream: .failingButServingPages)
        XCTAssertEqual(hit.status, 200, "crawlers see success")
        XCTAssertEqual(hit.body, "application's own page")
        XCTAssertEqual(try request("error-page-soft-status-proxied-page-hit", "/orders", upstream: .down).status, 502, "a page of a dead upstream fails too")
    }

    func testStatusOverrideTurnsTheErrorIntoSuccess() throws {
        let hit = try request("error-page-soft-status-hit", upstream: .down)
        XCTAssertEqual(hit.status, 200, "crawlers see success")
        XCTAssertTrue(hit.body.contains("detour-page-502"))
        let nearMiss = try request("error-page-soft-status-near-miss", upstream: .down)
        XCTAssertEqual(nearMiss.status, 503)
        XCTAssertTrue(nearMiss.body.contains("detour-page-502"))
    }

    /// `error_page 401 =200 /signin` under `auth_request` is the sign-in flow: a visitor who has
    /// not signed in gets the form with 200 on purpose. Taking a 5xx into it hides the failure.
    func testASignInFlowAnswers401WithTheFormAndA5xxWithItsPage() throws {
        let session = ["Cookie": "session=1"]
        for scenario in ["error-page-soft-status-sign-in-near-miss", "error-page-soft-status-sign-in-server-near-miss"] {
            let signedOut = try request(scenario, upstream: .signInService)
            XCTAssertEqual(signedOut.status, 200, scenario)
            XCTAssertEqual(signedOut.body, "sign-in form", scenario)
            assertServesPage(try request(scenario, headers: session, upstream: .signInService), 502, scenario)
        }
        let hit = try request("error-page-soft-status-sign-in-hit", headers: session, upstream: .signInService)
        XCTAssertEqual(hit.status, 200, "the application's 502 is sent as a sign-in form with 200")
        XCTAssertEqual(hit.body, "sign-in form")
    }

    /// Intercepting in the auth service's location hands its 401 to `error_page 401 =200`:
    /// the subrequest succeeds, and a visitor who never signed in reaches the application.
    func testAnInterceptedAuthServiceLetsEveryVisitorIn() throws {
        let hit = try request("auth-service-page-hit", upstream: .signInService)
        XCTAssertEqual(hit.status, 502, "past the auth service, to the failing application: \(hit.body)")
        assertServesPage(hit, 502, "hit")
        let nearMiss = try request("auth-service-page-near-miss", upstream: .signInService)
        XCTAssertEqual(nearMiss.status, 200)
        XCTAssertEqual(nearMiss.body, "sign-in form", "the visitor is sent to sign in")
    }

    /// A dead auth service fails the request that asked it with 500, under that location's
    /// pages: its own location needs none.
    func testAFailingAuthServiceAnswersWithTheAskingLocationsPage() throws {
        assertServesPage(try request("code-not-covered-auth-service-near-miss", upstream: .down), 500, "auth service down")
        assertServesPage(try request("code-not-covered-auth-service-near-miss", headers: ["Cookie": "session=1"], upstream: .signInService), 502, "signed in")
    }

    func testProtectedPageLocationAnswers403() throws {
        XCTAssertEqual(try request("error-page-protected-hit", upstream: .down).status, 403)
        assertServesPage(try request("error-page-protected-near-miss", upstream: .down), 502, "near miss")
    }

    /// Pages set in the catch-all `location /` serve every request under it; a location
    /// beside it without pages leaves nginx's own page.
    func testPagesInTheCatchAllLocationCoverItsRequestsOnly() throws {
        assertServesPage(try request("code-not-covered-catch-all-near-miss", "/shop/", upstream: .down), 502, "catch-all")
        let api = try request("code-not-covered-other-location-hit", "/api/", upstream: .down)
        XCTAssertEqual(api.status, 502)
        XCTAssertTrue(api.body.contains("<center>nginx"), api.body)
        assertServesPage(try request("code-not-covered-other-location-hit", "/shop/", upstream: .down), 502, "other location, under /")
    }

    /// A page whose request lands in a location that answers with `return` is that answer, sent
    /// with the error's status.
    func testAPageAnsweredByReturnIsLost() throws {
        let hit = try request("error-page-returned-hit", "/app/", upstream: .down)
        XCTAssertEqual(hit.status, 502)
        XCTAssertEqual(hit.body, "home")
        assertServesPage(try request("error-page-returned-near-miss", "/app/", upstream: .down), 502, "near miss")
    }

    /// Pages set only in the one location that can fail cover the server: the others never
    /// answer a 5xx.
    func testPagesInTheOnlyFailingLocationCoverTheServer() throws {
        assertServesPage(try request("code-not-covered-failing-location-near-miss", "/app/", upstream: .down), 502, "the failing location")
        assertServesPage(try request("code-not-covered-failing-location-near-miss", "/app/", upstream: .answering503), 503, "the application's 503")
        XCTAssertEqual(try statusLine("code-not-covered-failing-location-near-miss", "/healthz", upstream: .down), "HTTP/1.1 200 OK")
    }

    /// Server-wide `auth_basic`: a visitor with the password gets the page, as the checker
    /// says by staying silent; one location that lifts it leaves its visitors a 401.
    func testServerWidePasswordCarriesOverToThePageUnlessALocationLiftsIt() throws {
        try "staff:{PLAIN}s3cret\n".write(to: pages.url.appendingPathComponent("htpasswd"), atomically: true, encoding: .utf8)
        let credentials = ["Authorization": "Basic " + Data("staff:s3cret".utf8).base64EncodedString()]
        assertServesPage(try request("error-page-protected-server-wide-near-miss", headers: credentials, upstream: .down), 502, "server-wide")
        XCTAssertEqual(try statusLine("error-page-protected-server-wide-near-miss", upstream: .down), "HTTP/1.1 401 Unauthorized", "no password, no site")
        XCTAssertEqual(try statusLine("error-page-protected-lifted-hit", "/public/", upstream: .down), "HTTP/1.1 401 Unauthorized")
        assertServesPage(try request("error-page-protected-lifted-hit", headers: credentials, upstream: .down), 502, "lifted, with the password")
    }

    /// Server-wide `auth_basic`: the page for its own 401 goes to visitors without the
    /// password, and nginx asks for it again on the page's request, answering its built-in
    /// page, unless the pages' location lifts the password (the challenge header stays).
    func testServerWidePasswordKeepsItsOwn401PageUnlessThePagesLiftIt() throws {
        try FileManager.default.copyItem(at: NginxRuleFixtureTests.root.appendingPathComponent("pages/staff"), to: pages.url.appendingPathComponent("staff"))
        let hit = try rawResponse("error-page-protected-own-refusal-hit", upstream: .down)
        XCTAssertTrue(hit.hasPrefix("HTTP/1.1 401 Unauthorized"), hit)
        XCTAssertTrue(hit.contains("<title>401 Authorization Required</title>"), hit)
        let nearMiss = try rawResponse("error-page-protected-own-refusal-near-miss", upstream: .down)
        XCTAssertTrue(nearMiss.hasPrefix("HTTP/1.1 401 Unauthorized"), nearMiss)
        XCTAssertTrue(nearMiss.contains("detour-page-401"), nearMiss)
        XCTAssertTrue(nearMiss.contains("WWW-Authenticate: Basic realm=\"staging\""), nearMiss)
    }

    /// A page no location of its own serves is a plain file under the root: 200 to anyone.
    func testPageServedFromTheServerRootAnswersDirectRequests() throws {
        assertServesPage(try request("error-page-not-internal-server-root-hit", "/api/", upstream: .down), 502, "as an error page")
        let direct = try request("error-page-not-internal-server-root-hit", "/errors/502.html", upstream: .down)
        XCTAssertEqual(direct.status, 200)
        XCTAssertTrue(direct.body.contains("detour-page-502"), direct.body)
        XCTAssertEqual(try request("error-page-not-internal-server-root-near-miss", "/errors/502.html", upstream: .down).status, 404)
        assertServesPage(try request("error-page-not-internal-server-root-near-miss", "/api/", upstream: .down), 502, "near miss")
    }

    /// A server-level `if` on $request_uri holds again on the redirect to its page; on $uri it
    /// sees the page's URI.
    func testServerLevelIfRunsAgainForThePage() throws {
        let hit = try request("error-page-server-rewrite-hit", "/closed/report", upstream: .down)
        XCTAssertEqual(hit.status, 503)
        XCTAssertTrue(hit.body.contains("<center>nginx"), "nginx's default page: \(hit.body)")
        assertServesPage(try request("error-page-server-rewrite-near-miss", "/closed/report", upstream: .down), 503, "near miss")
    }

    func testServerLevelReturnRunsAgainForItsOwnPage() throws {
        let hit = try request("error-page-server-rewrite-return-hit", upstream: .down)
        XCTAssertEqual(hit.status, 503)
        XCTAssertTrue(hit.body.contains("<center>nginx"), "nginx's default page: \(hit.body)")
        assertServesPage(try request("error-page-server-rewrite-return-near-miss", upstream: .down), 503, "near miss")
    }

    func testServerLevelRewriteRedirectsThePage() throws {
        let hit = try rawResponse("error-page-server-rewrite-rewrite-hit", upstream: .down)
        XCTAssertTrue(hit.hasPrefix("HTTP/1.1 301 "), hit)
        let location = hit.components(separatedBy: "\r\n").first { $0.hasPrefix("Location: ") } ?? ""
        XCTAssertTrue(location.hasSuffix("/errors/502"), "the 502 page's URI, rewritten: \(hit)")
        assertServesPage(try request("error-page-server-rewrite-rewrite-near-miss", upstream: .down), 502, "near miss")
    }
}
