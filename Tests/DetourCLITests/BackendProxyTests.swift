import DetourTestSupport
import Foundation
import XCTest

/// `detour backend` behind the other real proxies a cluster puts in front of it, and a real
/// browser showing what they pass on: Caddy's handle_errors forwarding the status, HAProxy
/// sending traffic to the pages when the application has no server left, Chromium on the page.
final class BackendProxyTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var service: PageServiceRun!

    override func setUpWithError() throws {
        (folder, service) = try PageServiceRun.overShippedSite()
    }

    override func tearDown() {
        service?.stop()
        folder?.remove()
    }

    /// The built page's `<h1>`, which the proxied answer must carry.
    private func heading(_ language: String, _ status: Int) throws -> String {
        let page = try String(contentsOf: folder.url.appendingPathComponent("public/errors/\(language)/\(status).html"), encoding: .utf8)
        let start = try XCTUnwrap(page.range(of: "<h1"))
        let end = try XCTUnwrap(page.range(of: "</h1>", range: start.upperBound..<page.endIndex))
        return String(page[start.lowerBound..<end.upperBound])
    }

    private func get(_ port: Int, _ path: String, _ headers: [(String, String)]) -> PageServiceRun.Answer? {
        PageServiceRun.send(to: port, path, headers, host: "shop.test")
    }

    func testCaddyForwardsTheErrorsStatusAndChromiumShowsThePage() throws {
        let caddyPort = LoopbackPort.free()
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        try scratch.write([
            "Caddyfile": """
            {
                admin off
                auto_https off
            }
            http://:\(caddyPort) {
                bind 127.0.0.1
                reverse_proxy 127.0.0.1:\(LoopbackPort.free())
                handle_errors {
                    reverse_proxy 127.0.0.1:\(service.port) {
                        header_up X-Code {err.status_code}
                        header_up X-Request-ID {http.request.uuid}
                    }
                }
            }

            """
        ])
        let caddy = try ServerProcess(
            "caddy", ["run", "--config", scratch.path + "/Caddyfile", "--adapter", "caddyfile"],
            environment: ["HOME": scratch.path, "XDG_DATA_HOME": scratch.path, "XDG_CONFIG_HOME": scratch.path],
            log: scratch.url.appendingPathComponent("caddy.log"))
        defer { caddy.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(caddyPort, while: { caddy.isRunning }), caddy.log)
        for language in ["en", "de", "ja"] {
            let answer = try XCTUnwrap(get(caddyPort, "/cart", [("Accept-Language", language)]), caddy.log)
            XCTAssertEqual(answer.status, 502, language)
            XCTAssertEqual(answer.headers["content-language"], language)
            XCTAssertTrue(answer.body.contains(try heading(language, 502)), answer.body)
        }
        let json = try XCTUnwrap(get(caddyPort, "/api/orders", [("Accept", "application/json")]))
        XCTAssertEqual(json.status, 502)
        let problem = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.body.utf8)) as? [String: Any])
        XCTAssertEqual((problem["request_id"] as? String)?.count, 36, "Caddy's request UUID is the reference")
        // A visitor's browser: the page as it lays it out, in the language it asks for.
        let dom = try Chromium.dumpDOM("http://127.0.0.1:\(caddyPort)/checkout", arguments: ["--accept-lang=fr"])
        XCTAssertTrue(dom.contains("<html lang=\"fr\""), dom)
        XCTAssertTrue(dom.contains(try heading("fr", 502)), dom)
    }

    /// HAProxy's way: the application's backend has no server up, so the frontend sends the
    /// request to the pages with the status it stands for.
    func testHAProxySendsTrafficToThePagesWhenTheApplicationIsDown() throws {
        let haproxyPort = LoopbackPort.free()
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        try scratch.write([
            "haproxy.cfg": """
            defaults
                mode http
                timeout connect 1s
                timeout client 5s
                timeout server 5s
            frontend web
                bind 127.0.0.1:\(haproxyPort)
                unique-id-format %{+X}o%ci%cp%fi%fp%Ts%rt
                http-request set-header X-Request-ID %[unique-id]
                use_backend pages if { nbsrv(app) eq 0 }
                default_backend app
            backend app
                server app1 127.0.0.1:\(LoopbackPort.free()) check inter 100ms fall 1 rise 1
            backend pages
                http-request set-header X-Code 503
                server pages 127.0.0.1:\(service.port)

            """
        ])
        let haproxy = try ServerProcess("haproxy", ["-f", scratch.path + "/haproxy.cfg", "-db"], log: scratch.url.appendingPathComponent("haproxy.log"))
        defer { haproxy.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(haproxyPort, while: { haproxy.isRunning }), haproxy.log)
        // Until its first check fails the server counts as up.
        var answer: PageServiceRun.Answer?
        let deadline = Date().addingTimeInterval(10)
        repeat {
            answer = get(haproxyPort, "/", [("Accept-Language", "es"), ("Accept", "text/plain")])
            if answer?.status == 503, answer?.headers["content-language"] == "es" { break }
            usleep(100_000)
        } while Date() < deadline
        let page = try XCTUnwrap(answer, haproxy.log)
        XCTAssertEqual(page.status, 503, page.body)
        XCTAssertEqual(page.headers["content-type"], "text/plain; charset=utf-8")
        XCTAssertEqual(page.headers["retry-after"], "120")
        XCTAssertTrue(page.body.hasPrefix("Error 503"), page.body)
        XCTAssertTrue(page.body.contains("\nReference: "), "HAProxy's unique ID is the reference: \(page.body)")
    }
}
