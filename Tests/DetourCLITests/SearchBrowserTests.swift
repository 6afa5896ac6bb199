import DetourSearch
import DetourTestSupport
import Foundation
import XCTest

/// The help site's search in headless Chromium, served by nginx under
/// `Content-Security-Policy: default-src 'self'` and opened from disk: what a visitor's
/// browser shows for each query, in rank order.
final class SearchBrowserTests: XCTestCase {
    /// Query → the page expected among the first three results (`#anchor` allowed after it).
    static let relevance: [(String, String)] = [
        // Exact codes.
        ("502", "codes/502/"), ("error 504", "codes/504/"), ("HTTP 503", "codes/503/"), ("404", "codes/404/"),
        ("429", "codes/429/"), ("status 500", "codes/500/"), ("520", "codes/520/"), ("444", "codes/444/"),
        // A visitor's words.
        ("site says bad gateway", "codes/502/"), ("gateway timeout", "codes/504/"), ("too many requests", "codes/429/"),
        ("page not found", "codes/404/"), ("service unavailable", "codes/503/"), ("uri too long", "codes/414/"),
        ("web server is down", "codes/521/"), ("forbidden", "codes/403/"),
        // An operator's terms.
        ("proxy_read_timeout", "articles/upstream-timed-out/"), ("php-fpm socket", "articles/php-fpm-socket-unavailable/"),
        ("health checks backends down", "articles/health-checks-mark-all-backends-down/"), ("connection refused", "articles/upstream-connection-refused/"),
        ("too big header", "articles/upstream-header-too-big/"), ("cdn origin", "articles/cdn-cannot-reach-origin/"),
        // Typos.
        ("upstrem timout", "articles/upstream-timed-out/"), ("helth checks", "articles/health-checks-mark-all-backends-down/"),
        ("conection refused", "articles/upstream-connection-refused/"), ("gatway timeout", "codes/504/"),
        // Other languages of the site: words only they have lead into their own folder; words the
        // default language shares ("Gateway", "no") find its page first.
        ("Zeitüberschreitung Gateway", "codes/504/"), ("passerelle incorrecte", "fr/codes/502/"), ("servicio no disponible", "codes/503/"),
        ("ゲートウェイタイムアウト", "ja/codes/504/"), ("Dienst nicht verfügbar", "de/codes/503/"),
        // Error-log lines: nginx, Apache, HAProxy, Caddy, PHP-FPM behind nginx, gunicorn, CDNs.
        ("upstream prematurely closed connection while reading response header", "articles/upstream-timed-out/"),
        ("connect() failed (111: Connection refused) while connecting to upstream", "articles/upstream-connection-refused/"),
        ("AH00957: http: attempt to connect to 127.0.0.1:8080 (127.0.0.1) failed", "articles/upstream-connection-refused/"),
        ("backend app has no server available!", "articles/health-checks-mark-all-backends-down/"),
        ("dial tcp 127.0.0.1:8080: connect: connection refused", "articles/upstream-connection-refused/"),
        ("connect() to unix:/run/php/php8.2-fpm.sock failed (13: Permission denied)", "articles/php-fpm-socket-unavailable/"),
        ("upstream sent too big header while reading response header from upstream", "articles/upstream-header-too-big/"),
        ("[CRITICAL] WORKER TIMEOUT (pid:1234)", "articles/workers-killed/"),
        ("CloudFront wasn't able to connect to the origin", "articles/cdn-cannot-reach-origin/"),
    ]

    static let hostile = [
        "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "'\"`", "🔥 502 🔥", "مرحبا بالعالم",
        String(repeating: "upstream timeout ", count: 590), "",
    ]

    /// Texts both tokenizers must cut the same way (SearchTokenizer for a language without stemming).
    static let tokenTexts = [
        "proxy_read_timeout php8.2-fpm ProxyErrorOverride", "connect() failed (111: Connection refused) while connecting to upstream",
        "127.0.0.1:9000 unix:/run/php/php8.2-fpm.sock", "Gateway-Zeitüberschreitung à la carte", "ゲートウェイのエラー 502 鍵", "a--b x 5xx HTTP/2 ECONNREFUSED",
    ]

    private var site: TemporaryFolder!
    private var server: NginxServer?

    override func setUpWithError() throws {
        site = try SampleSite.shipped()
        // Markup in an article must reach an excerpt as text.
        try site.write([
            "content/articles/test/markup.md": """
            ---
            title: Escaping check
            summary: Text that looks like markup.
            codes: [500]
            audience: operator
            ---

            Write `<img src=x onerror=alert(1)>` and <b>bold</b> as text: zanzibarquux.
            """
        ])
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: site.url).status, 0)
    }

    override func tearDown() {
        server?.stop()
        site.remove()
    }

    func testQueriesInTheServedSiteUnderAStrictPolicy() throws {
        let queries = Self.relevance.map(\.0) + Self.hostile + ["zanzibarquux"]
        let data = try JSONSerialization.data(withJSONObject: ["queries": queries, "tokens": Self.tokenTexts])
        try site.write([
            "probe/probe.html":
                #"<!doctype html><html><head><meta charset="utf-8"></head><body><pre id="out">waiting</pre><iframe id="page"></iframe><script src="queries.js"></script><script src="probe.js"></script></body></html>"#,
            "probe/queries.js": "var PROBE = \(String(decoding: data, as: UTF8.self)); var QUERIES = PROBE.queries, TOKEN_TEXTS = PROBE.tokens;",
            "probe/probe.js": try String(
                contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("SearchProbe/probe.js"), encoding: .utf8),
        ])
        let port = LoopbackPort.free()
        let nginx = try NginxServer(
            config: NginxServer.httpBlock(
                """
                server {
                    listen 127.0.0.1:\(port);
                    root \(site.path)/public;
                    add_header Content-Security-Policy "default-src 'self'" always;
                    location /probe/ { root \(site.path); }
                }
                """))
        server = nginx
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), nginx.errorLog)
        let dom = try Chromium.dumpDOM("http://127.0.0.1:\(port)/probe/probe.html", arguments: ["--virtual-time-budget=120000"])
        let report = try XCTUnwrap(Self.probeReport(dom), dom.suffix(2000).description)

        let results = try XCTUnwrap(report["queries"] as? [[String: Any]])
        XCTAssertEqual(results.count, queries.count)
        var misses: [String] = []
        for (index, (query, expected)) in Self.relevance.enumerated() {
            let links = results[index]["links"] as? [String] ?? []
            if !links.prefix(3).contains(where: { $0 == expected || $0.hasPrefix(expected + "#") }) { misses.append("\(query) → \(links.prefix(3))") }
        }
        XCTAssertEqual(misses, [], "queries whose page is not in the first three results")
        for (index, (query, expected)) in Self.relevance.prefix(8).enumerated() {
            XCTAssertEqual((results[index]["links"] as? [String])?.first, expected, "an exact status puts its page first: \(query)")
        }
        for result in results[Self.relevance.count...] {
            let query = result["q"] as? String ?? ""
            XCTAssertEqual(result["injected"] as? Int, 0, "markup injected by \(query.prefix(40))")
            XCTAssertEqual(result["boxValue"] as? String, query, "the box keeps the query as typed")
        }
        let empty = try XCTUnwrap(results.first { ($0["q"] as? String) == "" })
        XCTAssertEqual(empty["browseShown"] as? Bool, true, "an empty query shows the browse list")
        let markup = try XCTUnwrap(results.last)
        XCTAssertEqual((markup["links"] as? [String])?.first, "articles/markup/")
        XCTAssertTrue((markup["excerpt"] as? String ?? "").contains("<img src=x onerror=alert(1)>"), "\(markup)")
        XCTAssertEqual(markup["marks"] as? [String], ["zanzibarquux"])

        let tokens = try XCTUnwrap(report["tokens"] as? [[String]])
        XCTAssertEqual(tokens, Self.tokenTexts.map { SearchTokenizer(language: "de").terms($0) }, "search.js cuts text as the index did")

        let keyboard = try XCTUnwrap(report["keyboard"] as? [String: Any])
        XCTAssertEqual(keyboard["focused"] as? Bool, true, "/ focuses the search box")
        XCTAssertEqual(keyboard["expanded"] as? String, "true")
        XCTAssertEqual(keyboard["role"] as? String, "listbox")
        XCTAssertEqual(keyboard["optionRole"] as? String, "option")
        XCTAssertEqual(keyboard["activeIsSecond"] as? Bool, true, "two presses of ↓ select the second result")
        XCTAssertEqual(keyboard["selected"] as? String, "true")
        let missing = nginx.accessLog.split(separator: "\n").filter { $0.contains("GET /search") && $0.contains("\" 404 ") }
        XCTAssertEqual(missing, [], "every file the search asked for exists")
    }

    /// The client every help page loads: small, and nothing that a strict CSP would block.
    func testTheSearchClientStaysSmallAndEvalFree() throws {
        let script = try String(contentsOf: site.url.appendingPathComponent("public/search.js"), encoding: .utf8)
        XCTAssertLessThan(script.utf8.count, 10_000, "search.js is under 10 KB before compression")
        for forbidden in ["eval(", "new Function", "WebAssembly", "fetch(", "innerHTML"] {
            XCTAssertFalse(script.contains(forbidden), "search.js uses \(forbidden)")
        }
        let searchPage = try String(contentsOf: site.url.appendingPathComponent("public/search/index.html"), encoding: .utf8)
        XCTAssertTrue(searchPage.contains(#"<link rel="preload" href="../search/en/index.js" as="script">"#), "the search page fetches its index with the page")
    }

    func testSearchWorksOpenedFromDisk() throws {
        let page = site.url.appendingPathComponent("public/search/index.html").absoluteString
        let dom = try Chromium.dumpDOM(page + "?q=upstrem%20timout")
        let links = Self.resultLinks(dom)
        XCTAssertTrue(links.first?.hasSuffix("/public/articles/upstream-timed-out/index.html") == true, "\(links)")
        let code = Self.resultLinks(try Chromium.dumpDOM(page + "?q=HTTP%20503"))
        XCTAssertTrue(code.first?.hasSuffix("/public/codes/503/index.html") == true, "\(code)")
    }

    private static func probeReport(_ dom: String) -> [String: Any]? {
        guard let start = dom.range(of: "<pre id=\"out\">"), let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex) else { return nil }
        let text = String(dom[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    private static func resultLinks(_ dom: String) -> [String] {
        guard let start = dom.range(of: "id=\"search-results\"") else { return [] }
        let tail = dom[start.upperBound...]
        let section = tail[..<(tail.range(of: "id=\"search-browse\"")?.lowerBound ?? tail.endIndex)]
        return section.components(separatedBy: "href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }
}
