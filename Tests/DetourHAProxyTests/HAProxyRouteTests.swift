import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourHAProxy

/// Where a page's own request goes, and what detour claims only when the page's path alone
/// decides it.
final class HAProxyRouteTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder.remove()
    }

    private func model(_ config: String) throws -> HAProxyModel {
        try folder.write(["haproxy.cfg": config])
        let loaded = HAProxyConfig.load([(folder.url.appendingPathComponent("haproxy.cfg"), "haproxy.cfg")], environment: [:])
        XCTAssertEqual(loaded.diagnostics, [])
        return HAProxyModel(loaded)
    }

    private func findings(_ config: String) throws -> [Diagnostic] {
        try folder.write(["haproxy.cfg": config])
        return HAProxyChecker.check(
            .init(main: folder.url.appendingPathComponent("haproxy.cfg"), mainDisplay: "haproxy.cfg", pages: nil, maps: []), environment: [:]
        ).diagnostics
    }

    private func routed(_ path: String, in model: HAProxyModel) -> String? {
        var router = HAProxyPageRouter(model.proxies[0], in: model)
        return router.route(path).map { "\($0.backend.name)@\($0.line?.line ?? 0)" }
    }

    func testThePathDecidesTheRouteOrNothingIsClaimed() throws {
        let byPath = try model(
            """
            frontend web
                mode http
                acl pages path_beg /errors/
                use_backend assets if { path_end .css } || { path_end .js }
                use_backend static if pages
                default_backend app
            backend app
            backend static
            backend assets

            """)
        XCTAssertEqual(routed("/errors/503.html", in: byPath), "static@5")
        XCTAssertEqual(routed("/cart", in: byPath), "app@6")
        XCTAssertEqual(routed("/errors/site.css", in: byPath), "assets@4", "the first use_backend that applies wins")

        let byHost = try model(
            """
            frontend web
                mode http
                use_backend shop if { hdr(host) -i shop.test }
                use_backend static if { path_beg /errors/ }
                default_backend app
            backend app
            backend shop
            backend static

            """)
        XCTAssertNil(routed("/errors/503.html", in: byHost), "a Host decides before the path: not guessed")

        let dynamic = try model(
            """
            frontend web
                mode http
                use_backend be_%[req.hdr(host),lower]
                default_backend app
            backend app

            """)
        XCTAssertNil(routed("/errors/503.html", in: dynamic))

        let listen = try model(
            """
            listen web
                mode http
                use_backend static if { path_beg /errors/ }
            backend static

            """)
        XCTAssertEqual(routed("/errors/503.html", in: listen), "static@3")
        XCTAssertEqual(routed("/cart", in: listen), "web@0", "a listen section keeps what it does not route")
    }

    /// The first note of the errorloc warning for a frontend routing by `routes`, to backend
    /// 'shop' (whose errorloc it is) or 'blog'.
    private func errorlocNote(_ routes: String) throws -> String? {
        let found = try findings(
            """
            frontend web
                mode http
            \(routes)
            backend shop
                errorloc 503 /errors/503.html
                mode http
            backend blog
                mode http

            """
        ).filter { $0.rule == "haproxy.errorloc-redirect" }
        XCTAssertEqual(found.count, 1, "\(found)")
        return found.first?.notes.first.map { "\($0.location?.line ?? 0): \($0.message)" }
    }

    func testWhatTheVisitorsRequestSharesDecidesTheRouteToo() throws {
        let loop =
            "3: frontend 'web' routes '/errors/503.html' back to backend 'shop', whose failure sent visitors there: while it fails, they are sent to the page again and again"
        // The page's own request has the visitor's Host: it goes where the visitor's went.
        XCTAssertEqual(
            try errorlocNote(
                "    use_backend shop if { hdr(host) -i shop.test }\n    use_backend blog if { hdr(host) -i blog.test }\n    default_backend blog"), loop)
        XCTAssertEqual(
            try errorlocNote("    use_backend shop if { req.hdr(host),lower -m str shop.test } || { src 10.0.0.0/8 }\n    default_backend blog"), loop)
        XCTAssertEqual(
            try errorlocNote("    acl shop hdr_dom(host) -i shop.test\n    use_backend shop if shop\n    default_backend blog"), "4" + loop.dropFirst())

        let general =
            "0: the page's own request comes back through the frontend: where it reaches the backend that failed, visitors are sent to the page again and again"
        // A cookie may differ; the visitor's own path may have been what took it there.
        XCTAssertEqual(try errorlocNote("    use_backend shop if { req.cook(beta) -m found }\n    default_backend blog"), general)
        XCTAssertEqual(
            try errorlocNote("    use_backend shop if { path_beg /shop/ }\n    use_backend shop if { hdr(host) -i shop.test }\n    default_backend blog"),
            general)
        // Past the Host rules the page's path is taken elsewhere: no loop, whichever way the visitor came.
        XCTAssertEqual(
            try errorlocNote("    use_backend blog if { hdr(host) -i blog.test }\n    use_backend blog if { path_beg /errors/ }\n    default_backend shop"),
            "4: frontend 'web' routes the page's own request to backend 'blog', which must answer it")
    }

    func testARedirectBuiltPerRequestIsNotFollowed() throws {
        let found = try findings(
            """
            frontend web
                mode http
                # /cart goes to /v2/cart, which the rule leaves alone: no loop, though the
                # written target '/v2%[path]' does not start with /v2/.
                http-request redirect location /v2%[path] if !{ path_beg /v2/ }
                http-request redirect location /moved
                http-request deny if { path_beg /moved }
                default_backend app
            backend app
                mode http

            """)
        XCTAssertEqual(found.map(\.rule).sorted(), ["haproxy.error-page-protected", "haproxy.redirect-loop"], "only the redirect to a known path: \(found)")
        XCTAssertTrue(found.allSatisfy { $0.location.line == 6 || $0.location.line == 7 }, "\(found)")
    }

    func testAFrontendAndABackendOfOneNameAreTwoSections() throws {
        let found = try findings(
            """
            frontend web
                mode http
                http-request redirect location /errors/503.html if { nbsrv(web) eq 0 } !{ path_beg /errors/ }
                default_backend web
            backend web
                http-request redirect location /errors/503.html if { nbsrv(web) eq 0 }
                http-request deny if { path_beg /errors/ }
                mode http

            """)
        XCTAssertEqual(
            found.map { "\($0.location.line): \($0.rule)" }.sorted(), ["6: haproxy.redirect-loop", "7: haproxy.error-page-protected"],
            "the backend's own rules are followed: \(found)")
    }
}
