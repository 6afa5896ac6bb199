import DetourContent
import DetourLogs
import DetourTestSupport
import Foundation
import XCTest

/// The shipped articles' log patterns and statuses, reproduced on the real nginx, HAProxy,
/// Caddy and Apache: each failure is made to happen, the visitor's status is the one the
/// article states, and `detour diagnose` sends the line the server really wrote to that article.
final class ShippedLogPatternTests: XCTestCase {

    /// Runs nginx with `location` as its only location (and `http` beside the server), asks it
    /// `requests` times, and returns the statuses and the articles its error log leads to.
    private func reproduce(_ location: String, http: String = "", requests: Int = 1, path: String = "/", file: StaticString = #filePath, line: UInt = #line)
        throws -> (statuses: [Int], causes: [DiagnoseReport.Cause])
    {
        let port = LoopbackPort.free()
        let nginx = try NginxServer(config: NginxServer.httpBlock("\(http) server { listen 127.0.0.1:\(port); proxy_read_timeout 1s; \(location) }"))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), nginx.errorLog, file: file, line: line)
        let statuses = try (0..<requests).map { _ in try HTTPClient.get("http://127.0.0.1:\(port)\(path)").status }
        let causes = try diagnose(nginx.errorLog, file: file, line: line)
        XCTAssertFalse(causes.isEmpty, "no article explains nginx's lines:\n\(nginx.errorLog)", file: file, line: line)
        return (statuses, causes)
    }

    private func assertLeads(
        _ reproduced: (statuses: [Int], causes: [DiagnoseReport.Cause]), to slug: String, status: Int, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(reproduced.statuses.last, status, "what the visitor gets", file: file, line: line)
        XCTAssertEqual(reproduced.causes.map(\.slug), [slug], file: file, line: line)
        XCTAssertTrue(
            reproduced.causes.first?.statuses.contains(status) == true, "the article names the status visitors get, \(status)", file: file, line: line)
    }

    /// nginx's own file, served by the location under test: something that answers 200.
    private let servedFile = "location / { root {{PREFIX}}; limit_req zone=perip; STATUS }"

    func testRateLimitedRequestsGet503UnlessTold429() throws {
        let zone = "limit_req_zone $binary_remote_addr zone=perip:1m rate=1r/m;"
        let plain = try reproduce(servedFile.replacingOccurrences(of: "STATUS", with: ""), http: zone, requests: 2, path: "/nginx.conf")
        XCTAssertEqual(plain.statuses, [200, 503])
        XCTAssertEqual(plain.causes.map(\.slug), ["rate-limiting"])
        XCTAssertTrue(plain.causes.first?.statuses.contains(503) == true)
        let told = try reproduce(servedFile.replacingOccurrences(of: "STATUS", with: "limit_req_status 429;"), http: zone, requests: 2, path: "/nginx.conf")
        XCTAssertEqual(told.statuses, [200, 429])
        XCTAssertTrue(told.causes.first?.statuses.contains(429) == true)
    }

    func testAZoneLimitsEveryServerThatSharesIt() throws {
        let first = LoopbackPort.free()
        let second = LoopbackPort.free()
        let nginx = try NginxServer(
            config: NginxServer.httpBlock(
                """
                limit_req_zone $binary_remote_addr zone=perip:1m rate=1r/m;
                server { listen 127.0.0.1:\(first); location / { root {{PREFIX}}; limit_req zone=perip; } }
                server { listen 127.0.0.1:\(second); location / { root {{PREFIX}}; limit_req zone=perip; } }
                """))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(second), nginx.errorLog)
        XCTAssertEqual(try HTTPClient.get("http://127.0.0.1:\(first)/nginx.conf").status, 200)
        XCTAssertEqual(try HTTPClient.get("http://127.0.0.1:\(second)/nginx.conf").status, 503, "the client's first request on this server")
        XCTAssertTrue(nginx.errorLog.contains("[error]"), "turned-away requests are logged at the error level: \(nginx.errorLog)")
    }

    func testTooManyConnectionsGet503UnlessTold429() throws {
        let upstream = try FakeUpstream(.silent)
        defer { upstream.stop() }
        for (status, directive) in [(503, ""), (429, "limit_conn_status 429;")] {
            let port = LoopbackPort.free()
            let nginx = try NginxServer(
                config: NginxServer.httpBlock(
                    """
                    limit_conn_zone $binary_remote_addr zone=addr:1m;
                    server { listen 127.0.0.1:\(port); proxy_read_timeout 2s; location / { limit_conn addr 1; \(directive) proxy_pass http://127.0.0.1:\(upstream.port); } }
                    """))
            defer { nginx.stop() }
            XCTAssertTrue(LoopbackPort.waitUntilOpen(port), nginx.errorLog)
            // The first request holds the only connection the zone allows, waiting on the upstream.
            let held = DispatchGroup()
            DispatchQueue.global().async(group: held) { _ = try? HTTPClient.get("http://127.0.0.1:\(port)/") }
            Thread.sleep(forTimeInterval: 0.4)
            XCTAssertEqual(try HTTPClient.get("http://127.0.0.1:\(port)/").status, status)
            held.wait()
            let causes = try diagnose(nginx.errorLog)
            XCTAssertTrue(causes.contains { $0.slug == "rate-limiting" && $0.count == 1 && $0.statuses.contains(status) }, nginx.errorLog)
        }
    }

    /// Runs every reproduction: the visitor gets the status the article states, `detour
    /// diagnose` sends the lines to those articles and no other, and every shipped pattern
    /// matched a line a real server wrote (and was the pattern the line was counted under).
    func testEveryFailureTheArticlesExplainLeadsToThem() throws {
        try XCTSkipIf(LogReproduction.all.contains { !$0.runnable }, "some reproductions need root, as CI has")
        let (content, problems) = ContentLoader(root: Repository.content, displayRoot: "content").load()
        let articles = try XCTUnwrap(content, "\(problems)").articles.filter { !$0.logPatterns.isEmpty }
        let matcher = LogMatcher(articles.map { LogCause(slug: $0.slug, title: $0.title, url: "", statuses: [], patterns: $0.logPatterns.map(\.value)) })
        var matched: Set<String> = []
        let excused = Self.deliberatelyUnexplained
        let excuses = LogMatcher(excused.map { LogCause(slug: "", title: $0.reason, url: "", statuses: [], patterns: [$0.pattern]) })
        var excuseUsed = Set<Int>()
        for reproduction in LogReproduction.all {
            let outcome = try reproduction.run()
            XCTAssertEqual(outcome.status, reproduction.status, "\(reproduction.name): what the visitor gets\n\(outcome.log)")
            let report = try diagnosis(outcome.log)
            let causes = report.causes
            XCTAssertEqual(Set(causes.map(\.slug)), Set(reproduction.slugs), "\(reproduction.name): the articles its lines lead to\n\(outcome.log)")
            if outcome.status >= 400, let cause = causes.first(where: { $0.slug == reproduction.slugs.first }) {
                XCTAssertTrue(
                    cause.statuses.contains(outcome.status), "\(reproduction.name): \(cause.slug) does not name \(outcome.status), the status visitors get")
            }
            // Where the server's own lines say what the visitor got (HAProxy, Caddy), it is what curl got.
            if outcome.status >= 100, let cause = causes.first(where: { $0.slug == reproduction.slugs.first }), !cause.loggedStatuses.isEmpty {
                XCTAssertTrue(
                    cause.loggedStatuses.contains { $0.status == outcome.status },
                    "\(reproduction.name): the log says \(cause.loggedStatuses.map(\.status)), the visitor got \(outcome.status)\n\(outcome.log)")
            }
            var unexplained = 0
            // A stack trace's lines go where the line they continue went.
            var continuation = LogContinuation()
            var last = LineKind.explained
            var routine: [String] = []
            for line in outcome.log.split(separator: "\n").map(String.init) where !line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                if continuation.continues(line) {
                    if last == .unexplained { unexplained += 1 }
                } else if let (cause, pattern) = matcher.explanation(of: line) {
                    matched.insert(articles[cause].slug + " " + pattern.text)
                    last = .explained
                } else if LogRoutine.isRoutine(line) {
                    // A server starting, stopping or reading its configuration: no request's line.
                    routine.append(line)
                    last = .routine
                } else if let (excuse, _) = excuses.explanation(of: line) {
                    excuseUsed.insert(excuse)
                    last = excused[excuse].reason.hasPrefix("same request as") ? .explained : .unexplained
                    if last == .unexplained { unexplained += 1 }
                } else {
                    XCTFail("\(reproduction.name): no article explains this line, and LogCatalogue/unexplained.tsv does not say why: \(line)")
                }
            }
            let blamed = Set(causes.flatMap(\.lines))
            for line in routine where blamed.contains(line) {
                XCTFail("\(reproduction.name): detour diagnose blames a routine line on a cause: \(line)")
            }
            XCTAssertEqual(
                report.unexplained.count, unexplained,
                "\(reproduction.name): lines of the same request as an explained line count under its article, the others do not\n\(outcome.log)")
        }
        for (index, entry) in excused.enumerated() where !excuseUsed.contains(index) {
            XCTFail("LogCatalogue/unexplained.tsv: no reproduction wrote a line for \"\(entry.pattern)\" (or an article explains it)")
        }
        // Releases this machine does not run (Varnish 4.x and 6.0) write lines no reproduction
        // makes: each is the example of its message read from that release's source.
        for line in ServerMessageCatalogue.varnishSourceOnlyLines {
            guard let (cause, pattern) = matcher.explanation(of: line) else { continue }
            matched.insert(articles[cause].slug + " " + pattern.text)
        }
        for article in articles {
            for pattern in article.logPatterns where !matched.contains(article.slug + " " + pattern.value) {
                XCTFail("\(article.slug): no server wrote a line for \"\(pattern.value)\" (or another pattern explained it better)")
            }
        }
    }

    // MARK: Helpers and the other servers

    /// What a line of a reproduction's log is: explained by an article (or part of a request
    /// one explains), routine (`LogRoutine`), or neither.
    private enum LineKind { case explained, routine, unexplained }

    /// The lines reproductions write that no article explains on purpose, with the reason.
    static let deliberatelyUnexplained: [(pattern: String, reason: String)] = TestDataTable.rows("LogCatalogue/unexplained.tsv", fields: 2).map {
        ($0[0], $0[1])
    }

    /// The articles `detour diagnose` finds in `log`.
    private func diagnose(_ log: String, file: StaticString = #filePath, line: UInt = #line) throws -> [DiagnoseReport.Cause] {
        try diagnosis(log, file: file, line: line).causes
    }

    /// What `detour diagnose` reports for `log`.
    private func diagnosis(_ log: String, file: StaticString = #filePath, line: UInt = #line) throws -> DiagnoseReport {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        try scratch.write(["error.log": log])
        let result = try ProcessRunner.detour(["diagnose", "error.log", "--content", Repository.content.path, "--format", "json"], in: scratch.url)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return try JSONDecoder().decode(DiagnoseReport.self, from: Data(result.stdout.utf8))
    }

    /// Starts `tool` in the foreground with `arguments`, asks its port once `ready` holds, stops
    /// it, and gives the status and what it logged (its output and `extraLog`).
    private func run(_ tool: String, _ arguments: [String], port: Int, in folder: TemporaryFolder, extraLog: String? = nil, ready: () -> Bool = { true }) throws
        -> (status: Int, log: String)
    {
        let server = try ServerProcess(
            tool, arguments, environment: ["HOME": folder.path, "XDG_DATA_HOME": folder.path, "XDG_CONFIG_HOME": folder.path],
            log: folder.url.appendingPathComponent("server.log"))
        defer { server.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), server.log)
        let deadline = Date().addingTimeInterval(8)
        while !ready(), Date() < deadline { usleep(100_000) }
        let status = try HTTPClient.get("http://127.0.0.1:\(port)/").status
        server.stop()
        let extra = extraLog.flatMap { try? folder.read($0) } ?? ""
        return (status, server.log + extra)
    }

    func testHAProxyWithEveryServerDownByItsChecks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let port = LoopbackPort.free()
        try folder.write([
            "haproxy.cfg": """
            defaults
                mode http
                timeout connect 1s
                timeout client 5s
                timeout server 5s
            frontend web
                bind 127.0.0.1:\(port)
                default_backend app
            backend app
                server app1 127.0.0.1:\(LoopbackPort.free()) check inter 200ms fall 1 rise 1

            """
        ])
        let log = folder.url.appendingPathComponent("server.log")
        let (status, written) = try run("haproxy", ["-f", folder.path + "/haproxy.cfg", "-db"], port: port, in: folder) {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("has no server available")
        }
        XCTAssertEqual(status, 503)
        let causes = try diagnose(written)
        XCTAssertEqual(causes.map(\.slug), ["health-checks-mark-all-backends-down"], written)
        XCTAssertEqual(causes.first?.count, 2, "the server going down and the backend running out: \(written)")
        XCTAssertTrue(causes.first?.statuses.contains(503) == true)
    }

    func testApacheWithARefusedBackendAnswers503() throws {
        let site = try SampleSite.shipped()
        defer { site.remove() }
        let port = LoopbackPort.free()
        let upstream = LoopbackPort.free()
        let state = site.path + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let snippet = try ProcessRunner.detour(
            [
                "snippet", "apache", "--example", "--listen", "127.0.0.1:\(port)", "--upstream", "127.0.0.1:\(upstream)",
                "--state", state, "--install-path", site.path + "/public",
            ], in: site.url)
        XCTAssertEqual(snippet.status, 0, snippet.stderr)
        try snippet.stdout.write(toFile: state + "/apache.conf", atomically: true, encoding: .utf8)
        let (status, written) = try run("apache2", ["-f", state + "/apache.conf", "-DFOREGROUND"], port: port, in: site, extraLog: "state/error.log")
        XCTAssertEqual(status, 503)
        let causes = try diagnose(written)
        let cause = causes.first { $0.slug == "upstream-connection-refused" }
        // AH00957 says why, AH01114 follows it from the same thread: two lines, one incident.
        XCTAssertEqual(cause?.count, 2, written)
        XCTAssertEqual(cause?.incidents, 1, written)
        XCTAssertEqual(cause?.upstreams.map(\.upstream), ["127.0.0.1:\(upstream)"], written)
        XCTAssertTrue(cause?.statuses.contains(503) == true)
        XCTAssertTrue(cause?.lines.first?.contains("(111)Connection refused: AH00957: http: attempt to connect to") == true, written)
    }
}
