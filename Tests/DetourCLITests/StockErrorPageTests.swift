import DetourTestSupport
import Foundation
import XCTest

/// The pages each server sends of its own when its backend fails, made to happen on the real
/// servers: what they say is what visitors paste into a search box, so the articles quote it,
/// and this test holds every quote to the page the server really sends.
final class StockErrorPageTests: XCTestCase {
    /// What one server sent: its status, its `Server` header and its body.
    private struct StockPage {
        var status: Int
        var server: String?
        var body: String
    }

    /// Markup as sent (whitespace collapsed), for quotes of the page's tags.
    private func markup(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The words a visitor reads: the page without its tags, whitespace collapsed.
    private func words(_ html: String) -> String {
        markup(html.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression))
    }

    /// The Markdown source of a shipped page, whitespace collapsed, so a quote may wrap.
    private func shipped(_ path: String) throws -> String {
        markup(try String(contentsOf: Repository.root.appendingPathComponent(path), encoding: .utf8))
    }

    /// Each of `phrases` must be on the page and quoted in each of `pages`.
    private func assertQuoted(_ phrases: [String], on page: String, in pages: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        for phrase in phrases {
            XCTAssertTrue(page.contains(phrase), "the page does not say \"\(phrase)\": \(page)", file: file, line: line)
            for path in pages {
                XCTAssertTrue(try shipped(path).contains(phrase), "\(path) does not quote \"\(phrase)\"", file: file, line: line)
            }
        }
    }

    /// What the server on `port` answers to `method` for `path` (with `body`); nil when it answers nothing.
    private func fetch(_ port: Int, _ path: String = "/", method: String = "GET", body: Data? = nil) -> StockPage? {
        guard let response = try? HTTPClient.send("http://127.0.0.1:\(port)\(path)", method: method, body: body) else { return nil }
        return StockPage(status: response.status, server: response.headers["server"], body: response.body)
    }

    private let whichHop = "content/articles/cdn/which-hop-answered.md"

    func testNginxPageEndsWithItsName() throws {
        var page: StockPage?
        let dead = LoopbackPort.free()
        let outcome = try Reproduce.nginx("server { listen 127.0.0.1:PORT; server_tokens off; location / { proxy_pass http://127.0.0.1:\(dead); } }") {
            page = fetch($0)
            return page?.status ?? 0
        }
        XCTAssertEqual(outcome.status, 502, outcome.log)
        XCTAssertEqual(page?.server, "nginx")
        try assertQuoted(["<hr><center>nginx</center>"], on: markup(page?.body ?? ""), in: [whichHop])
    }

    /// nginx titles its pages in its own words, some of them older than the status's name.
    func testNginxPagesUseItsOwnReasonPhrases() throws {
        var pages: [String: StockPage] = [:]
        let outcome = try LogReproduction.with(.silent) { upstream in
            try Reproduce.nginx(
                """
                server {
                    listen 127.0.0.1:PORT; large_client_header_buffers 2 1k; client_max_body_size 10;
                    location = /busy { return 503; }
                    location = /slow { proxy_pass http://127.0.0.1:\(upstream.port); proxy_read_timeout 1s; }
                    location / { return 200; }
                }
                """
            ) { port in
                pages["503"] = fetch(port, "/busy")
                pages["504"] = fetch(port, "/slow")
                pages["414"] = fetch(port, "/" + String(repeating: "a", count: 2000))
                pages["413"] = fetch(port, method: "POST", body: Data(count: 100))
                return pages["503"]?.status ?? 0
            }
        }
        XCTAssertEqual(outcome.status, 503, outcome.log)
        let quoted: [(String, String, [String])] = [
            ("503", "503 Service Temporarily Unavailable", [whichHop, "content/codes/503.yml"]),
            ("504", "504 Gateway Time-out", [whichHop]),
            ("414", "414 Request-URI Too Large", [whichHop, "content/codes/414.yml"]),
            ("413", "413 Request Entity Too Large", [whichHop]),
        ]
        for (status, phrase, quotedIn) in quoted {
            XCTAssertEqual(pages[status]?.status, Int(status), "\(status): \(outcome.log)")
            try assertQuoted([phrase], on: words(pages[status]?.body ?? ""), in: quotedIn)
        }
        // The older names are also the code pages' former names.
        try assertQuoted(["Gateway Time-out"], on: words(pages["504"]?.body ?? ""), in: ["content/codes/504.yml"])
        try assertQuoted(["Request Entity Too Large"], on: words(pages["413"]?.body ?? ""), in: ["content/codes/413.yml"])
    }

    /// HAProxy's other pages of its own: a server too slow, one that answers garbage, a deny.
    func testHAProxyPagesForATimeoutABadAnswerAndADeny() throws {
        func page(_ behaviour: FakeUpstream.Behaviour, frontend: String = "default_backend app") throws -> StockPage? {
            var page: StockPage?
            _ = try LogReproduction.with(behaviour) { upstream in
                try Reproduce.haproxy(server: "127.0.0.1:\(upstream.port)", frontend: frontend) { port, _ in
                    page = fetch(port)
                    return page?.status ?? 0
                }
            }
            return page
        }
        let slow = try page(.silent)
        let garbage = try page(.notHTTP)
        let denied = try page(.answers, frontend: "http-request deny\n    default_backend app")
        XCTAssertEqual([slow?.status, garbage?.status, denied?.status], [504, 502, 403])
        try assertQuoted(["504 Gateway Time-out"], on: words(slow?.body ?? ""), in: [whichHop])
        try assertQuoted(["The server didn't respond in time."], on: words(slow?.body ?? ""), in: [whichHop, "content/codes/504.yml"])
        try assertQuoted(["The server returned an invalid or incomplete response."], on: words(garbage?.body ?? ""), in: [whichHop, "content/codes/502.yml"])
        try assertQuoted(["Request forbidden by administrative rules."], on: words(denied?.body ?? ""), in: [whichHop, "content/codes/403.yml"])
    }

    func testHAProxyPageSaysNoServerIsAvailable() throws {
        var page: StockPage?
        let outcome = try Reproduce.haproxy(server: "127.0.0.1:\(LoopbackPort.free())") { port, _ in
            page = fetch(port)
            return page?.status ?? 0
        }
        XCTAssertEqual(outcome.status, 503, outcome.log)
        XCTAssertNil(page?.server, "HAProxy sends no Server header on its own pages")
        try assertQuoted(["503 Service Unavailable", "No server is available to handle this request."], on: words(page?.body ?? ""), in: [whichHop])
    }

    /// Apache's 503 page reads as maintenance whatever the cause; its 502 is a "Proxy Error".
    /// Both are signed with Debian's `ServerSignature On`.
    func testApachePagesForARefusedAndAClosedBackend() throws {
        var refused: StockPage?
        var closed: StockPage?
        let outcome = try LogReproduction.with(.closes) { upstream in
            try Reproduce.apache(
                "ServerSignature On\nProxyPass /refused http://127.0.0.1:\(LoopbackPort.free())/\nProxyPass /closed http://127.0.0.1:\(upstream.port)/"
            ) { port in
                refused = fetch(port, "/refused")
                closed = fetch(port, "/closed")
                return refused?.status ?? 0
            }
        }
        XCTAssertEqual(outcome.status, 503, outcome.log)
        XCTAssertEqual(closed?.status, 502, outcome.log)
        XCTAssertTrue(refused?.server?.hasPrefix("Apache/") == true, refused?.server ?? "no Server header")
        let pages = [whichHop, "content/articles/proxy/apache-mod-proxy-errors.md"]
        try assertQuoted(
            ["The server is temporarily unable to service your request due to maintenance downtime or capacity problems."],
            on: words(refused?.body ?? ""), in: pages)
        try assertQuoted(
            ["502 Proxy Error", "The proxy server received an invalid response from an upstream server.", "Reason: Error reading from remote server"],
            on: words(closed?.body ?? ""), in: pages)
        try assertQuoted(["<address>Apache/"], on: markup(closed?.body ?? ""), in: [whichHop])
    }

    /// Apache's pages for a folder it denies, a file it lacks and a proxy it cannot make, each
    /// signed with Debian's `ServerSignature On`.
    func testApachePagesForADenialAMissingFileAndAMisconfiguration() throws {
        var pages: [Int: StockPage] = [:]
        let outcome = try Reproduce.apache(
            "ServerSignature On\n<Location /denied>\nRequire all denied\n</Location>\nProxyPass /ajp ajp://127.0.0.1:\(LoopbackPort.free())/"
        ) { port in
            for path in ["/denied", "/missing", "/ajp"] {
                if let page = fetch(port, path) { pages[page.status] = page }
            }
            return pages.count
        }
        XCTAssertEqual(Set(pages.keys), [403, 404, 500], outcome.log)
        try assertQuoted(
            ["You don't have permission to access this resource."], on: words(pages[403]?.body ?? ""),
            in: [whichHop, "content/codes/403.yml", "content/articles/proxy/forbidden-by-configuration.md"])
        try assertQuoted(["The requested URL was not found on this server."], on: words(pages[404]?.body ?? ""), in: [whichHop])
        try assertQuoted(
            ["The server encountered an internal error or misconfiguration and was unable to complete your request."],
            on: words(pages[500]?.body ?? ""), in: [whichHop, "content/codes/500.yml"])
        for page in pages.values { try assertQuoted(["<address>Apache/"], on: markup(page.body), in: [whichHop]) }
    }

    func testVarnishPageIsAGuruMeditation() throws {
        var page: StockPage?
        let outcome = try Reproduce.varnish(backend: #".host = "127.0.0.1"; .port = "\#(LoopbackPort.free())";"#) { port in
            page = fetch(port)
            return page?.status ?? 0
        }
        XCTAssertEqual(outcome.status, 503, outcome.log)
        XCTAssertEqual(page?.server, "Varnish")
        try assertQuoted(
            ["Error 503 Backend fetch failed", "Guru Meditation: XID:", "Varnish cache server"], on: words(page?.body ?? ""),
            in: [whichHop, "content/articles/upstream/upstream-connection-refused.md"])
        try assertQuoted(["Backend fetch failed", "Guru Meditation"], on: words(page?.body ?? ""), in: ["content/codes/503.yml"])
    }

    func testCaddySendsAnEmptyBody() throws {
        var page: StockPage?
        let outcome = try Reproduce.caddy(site: Reproduce.caddySite(upstream: "127.0.0.1:\(LoopbackPort.free())")) { port in
            page = fetch(port)
            return page?.status ?? 0
        }
        XCTAssertEqual(outcome.status, 502, outcome.log)
        XCTAssertEqual(page?.server, "Caddy")
        XCTAssertEqual(page?.body, "", "Caddy's own error responses have no body")
        XCTAssertTrue(try shipped(whichHop).contains("Caddy sends an empty body"))
    }
}
