import DetourSearch
import DetourTestSupport
import Foundation
import XCTest

/// The help site's search in headless Chromium, served by nginx under
/// `Content-Security-Policy: default-src 'self'` and opened from disk: what a visitor's
/// browser shows for each query, in rank order.
final class SearchBrowserTests: XCTestCase {
    /// One query of the relevance suite (`SearchRelevance/queries.tsv`).
    struct RelevanceQuery {
        var kind: String
        /// The language of the page the search is made from; nil for the default one's.
        var language: String?
        /// Typed into the box rather than submitted with the form.
        var typed: Bool
        var query: String
        /// The page expected among the first three results (`#anchor` allowed after it).
        var expected: String
    }

    static let relevance: [RelevanceQuery] = TestDataTable.rows("SearchRelevance/queries.tsv", fields: 5).map { fields in
        RelevanceQuery(kind: fields[0], language: fields[1] == "-" ? nil : fields[1], typed: fields[2] == "type", query: fields[3], expected: fields[4])
    }

    /// One of the real questions (`SearchRelevance/questions.tsv`): its half and the pages
    /// answering it, any of which in the first three counts.
    struct Question {
        var tuning: Bool
        var query: String
        var answers: [String]
    }

    static let questions: [Question] = TestDataTable.rows("SearchRelevance/questions.tsv", fields: 4).map { fields in
        Question(tuning: fields[0] == "tune", query: fields[1], answers: fields[2].split(separator: "|").map(String.init))
    }

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

            A script's objects know the word constructor too.
            """
        ])
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: site.url).status, 0)
    }

    override func tearDown() {
        server?.stop()
        site.remove()
    }

    func testQueriesInTheServedSiteUnderAStrictPolicy() throws {
        XCTAssertGreaterThanOrEqual(Self.relevance.count, 120, "the relevance suite reads SearchRelevance/queries.tsv")
        // A word an object's prototype holds is a word like any other.
        let prototypeWords = ["constructor", "Constructors"]
        let entries: [Any] = Self.relevanceEntries + Self.hostile + ["zanzibarquux"] + prototypeWords + Self.questionEntries
        try writeProbe(queries: entries, tokens: Self.tokenTexts)
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
        let dom = try Chromium.dumpDOM("http://127.0.0.1:\(port)/probe/probe.html", arguments: ["--virtual-time-budget=300000"])
        let report = try XCTUnwrap(Self.probeReport(dom), dom.suffix(2000).description)

        let results = try XCTUnwrap(report["queries"] as? [[String: Any]])
        XCTAssertEqual(results.count, entries.count)
        Self.assertRelevance(results, over: "http")
        Self.assertQuestions(Array(results.suffix(Self.questions.count)), over: "http")
        for (index, query) in Self.relevance.enumerated() where query.kind == "code" {
            XCTAssertEqual((results[index]["links"] as? [String])?.first, query.expected, "an exact status puts its page first: \(query.query)")
        }
        // A pasted line's framing (nginx, configuration: rare in log lines, common on the site)
        // weighs as common: the line's own words rank.
        let framed = try XCTUnwrap(results.first { ($0["q"] as? String)?.hasPrefix("Ubuntu nginx configuration: 502") == true })
        XCTAssertEqual((framed["links"] as? [String])?.first, "articles/upstream-connection-refused/", "\(framed)")
        for result in results[Self.relevance.count..<(results.count - Self.questions.count)] {
            let query = result["q"] as? String ?? ""
            XCTAssertEqual(result["injected"] as? Int, 0, "markup injected by \(query.prefix(40))")
            XCTAssertEqual(result["boxValue"] as? String, query, "the box keeps the query as typed")
        }
        let empty = try XCTUnwrap(results.first { ($0["q"] as? String) == "" })
        XCTAssertEqual(empty["browseShown"] as? Bool, true, "an empty query shows the browse list")
        let prototypeResults = results[..<(results.count - Self.questions.count)].suffix(prototypeWords.count)
        let markup = results[prototypeResults.startIndex - 1]
        XCTAssertEqual((markup["links"] as? [String])?.first, "articles/markup/")
        XCTAssertTrue((markup["excerpt"] as? String ?? "").contains("<img src=x onerror=alert(1)>"), "\(markup)")
        XCTAssertEqual(markup["marks"] as? [String], ["zanzibarquux"])
        for result in prototypeResults {
            XCTAssertEqual((result["links"] as? [String])?.first, "articles/markup/", "\(result["q"] ?? "")")
            XCTAssertEqual(result["marks"] as? [String], ["constructor"], "\(result)")
        }

        let tokens = try XCTUnwrap(report["tokens"] as? [[String]])
        XCTAssertEqual(tokens, Self.tokenTexts.map { SearchTokenizer(language: "de").terms($0) }, "search.js cuts text as the index did")

        let paging = try XCTUnwrap(report["paging"] as? [String: Any])
        XCTAssertEqual(paging["first"] as? Int, 10, "a frequent word shows ten results first: \(paging)")
        XCTAssertEqual(paging["moreShown"] as? Bool, true, "and offers more")
        let total = Int((paging["status"] as? String ?? "").prefix { $0.isNumber }) ?? 0
        XCTAssertGreaterThan(total, 10, "the count is of every match, not of those shown: \(paging)")
        XCTAssertEqual(paging["afterMore"] as? Int, min(20, total), "“More results” shows ten more")

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

    /// The real questions as the probe reads them, submitted with the form.
    private static var questionEntries: [[String: Any]] {
        questions.map { ["q": $0.query, "typed": false] }
    }

    /// The test half of the real questions, which search was never tuned on: an answering page
    /// in the first three for at least 88 % of them (the tuning half is only reported).
    private static func assertQuestions(_ results: [[String: Any]], over transport: String, file: StaticString = #filePath, line: UInt = #line) {
        var found = [true: 0, false: 0]
        var asked = [true: 0, false: 0]
        for (question, result) in zip(questions, results) {
            let links = (result["links"] as? [String] ?? []).prefix(3)
            asked[question.tuning, default: 0] += 1
            if links.contains(where: { link in question.answers.contains { link == $0 || link.hasPrefix($0 + "#") } }) {
                found[question.tuning, default: 0] += 1
            }
        }
        XCTAssertEqual(results.count, questions.count, file: file, line: line)
        XCTAssertGreaterThanOrEqual(asked[false]!, 80, "the real questions' test half reads SearchRelevance/questions.tsv", file: file, line: line)
        let (test, tuning) = ("\(found[false]!)/\(asked[false]!)", "\(found[true]!)/\(asked[true]!)")
        XCTAssertGreaterThanOrEqual(found[false]! * 100, asked[false]! * 88, "\(transport): test half \(test)", file: file, line: line)
        print("real questions over \(transport): test half \(test), tuning half \(tuning) in the first three")
    }

    /// The relevance queries as the probe reads them.
    private static var relevanceEntries: [[String: Any]] {
        relevance.map { query in
            var entry: [String: Any] = ["q": query.query, "typed": query.typed]
            entry["lang"] = query.language
            return entry
        }
    }

    /// `probe/` beside the built site: the page, the queries and `SearchProbe/probe.js`.
    private func writeProbe(queries: [Any], tokens: [String]) throws {
        let data = try JSONSerialization.data(withJSONObject: ["queries": queries, "tokens": tokens])
        try site.write([
            "probe/probe.html":
                #"<!doctype html><html><head><meta charset="utf-8"></head><body><pre id="out">waiting</pre><iframe id="page"></iframe><script src="queries.js"></script><script src="probe.js"></script></body></html>"#,
            "probe/queries.js": "var PROBE = \(String(decoding: data, as: UTF8.self)); var QUERIES = PROBE.queries, TOKEN_TEXTS = PROBE.tokens;",
            "probe/probe.js": try String(
                contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("SearchProbe/probe.js"), encoding: .utf8),
        ])
    }

    /// The expected page in the first three for 95 % of the queries, and 90 % of each class.
    private static func assertRelevance(_ results: [[String: Any]], over transport: String, file: StaticString = #filePath, line: UInt = #line) {
        var misses: [String: [String]] = [:]
        var counts: [String: Int] = [:]
        for (index, query) in relevance.enumerated() {
            counts[query.kind, default: 0] += 1
            let links = index < results.count ? results[index]["links"] as? [String] ?? [] : []
            if !links.prefix(3).contains(where: { $0 == query.expected || $0.hasPrefix(query.expected + "#") }) {
                misses[query.kind, default: []].append("\(query.query) → \(links.prefix(3))")
            }
        }
        let missed = misses.values.reduce(0) { $0 + $1.count }
        let summary = counts.keys.sorted().map { "\($0) \(counts[$0]! - (misses[$0]?.count ?? 0))/\(counts[$0]!)" }.joined(separator: ", ")
        XCTAssertLessThanOrEqual(missed * 20, relevance.count, "\(transport): \(summary); missed: \(misses)", file: file, line: line)
        for (kind, count) in counts {
            XCTAssertLessThanOrEqual((misses[kind]?.count ?? 0) * 10, count, "\(transport), \(kind): \(misses[kind] ?? [])", file: file, line: line)
        }
        print("search relevance over \(transport): \(relevance.count - missed)/\(relevance.count) in the first three (\(summary)); missed: \(misses)")
    }

    /// The same relevance suite with the site opened from disk, as a visitor reads a copy.
    func testRelevanceOpenedFromDisk() throws {
        let entries = Self.relevanceEntries + Self.questionEntries
        try writeProbe(queries: entries, tokens: [])
        let page = site.url.appendingPathComponent("probe/probe.html").absoluteString
        let dom = try Chromium.dumpDOM(page, arguments: ["--allow-file-access-from-files", "--virtual-time-budget=300000"])
        let report = try XCTUnwrap(Self.probeReport(dom), dom.suffix(2000).description)
        let results = try XCTUnwrap(report["queries"] as? [[String: Any]])
        XCTAssertEqual(results.count, entries.count)
        Self.assertRelevance(results, over: "file://")
        Self.assertQuestions(Array(results.suffix(Self.questions.count)), over: "file://")
    }

    /// The client every help page loads: small, and nothing that a strict CSP would block.
    func testTheSearchClientStaysSmallAndEvalFree() throws {
        let script = try String(contentsOf: site.url.appendingPathComponent("public/search.js"), encoding: .utf8)
        // Ranking by rarity, statuses placed by what the query is about and log lines merged
        // with the term shards took it from 12 to 14 KB.
        XCTAssertLessThan(script.utf8.count, 14_000, "search.js is under 14 KB before compression")
        let gzip = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "gzip -9c public/search.js | wc -c"], in: site.url)
        XCTAssertLessThan(Int(gzip.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max, 6_000, "search.js is under 6 KB compressed")
        for forbidden in ["eval(", "new Function", "WebAssembly", "fetch(", "innerHTML"] {
            XCTAssertFalse(script.contains(forbidden), "search.js uses \(forbidden)")
        }
        let searchPage = try String(contentsOf: site.url.appendingPathComponent("public/search/index.html"), encoding: .utf8)
        // A query's first request is for its own terms: the page carries the index's entry.
        XCTAssertFalse(searchPage.contains(#"href="../search/en/index.js""#), "the search page does not fetch the entry it carries")
        let entryFile = try String(contentsOf: site.url.appendingPathComponent("public/search/en/index.js"), encoding: .utf8)
        let carried = try XCTUnwrap(searchPage.firstMatch(of: /data-index="([^"]*)"/)?.1, "the search page carries the index's entry")
        let unescaped = String(carried).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        XCTAssertEqual(entryFile, #"detourSearch.entry("en","# + unescaped + ");\n", "the carried entry is index.js's")
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
