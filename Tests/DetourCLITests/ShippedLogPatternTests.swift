import DetourTestSupport
import Foundation
import XCTest

/// The shipped articles' log patterns and statuses, reproduced on the real nginx: each failure
/// is made happen, the visitor's status is the one the article states, and `detour diagnose`
/// sends the line nginx really wrote to that article.
final class ShippedLogPatternTests: XCTestCase {
    private struct Report: Decodable {
        struct Cause: Decodable { var slug: String; var statuses: [Int]; var count: Int }
        var causes: [Cause]
    }

    /// Runs nginx with `location` as its only location (and `http` beside the server), asks it
    /// `requests` times, and returns the statuses and the articles its error log leads to.
    private func reproduce(_ location: String, http: String = "", requests: Int = 1, file: StaticString = #filePath, line: UInt = #line) throws -> (statuses: [Int], causes: [Report.Cause]) {
        let port = LoopbackPort.free()
        let nginx = try NginxServer(config: NginxServer.httpBlock("\(http) server { listen 127.0.0.1:\(port); proxy_read_timeout 1s; \(location) }"))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), nginx.errorLog, file: file, line: line)
        let statuses = try (0..<requests).map { _ in try HTTPClient.get("http://127.0.0.1:\(port)/").status }
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        try scratch.write(["error.log": nginx.errorLog])
        let result = try ProcessRunner.detour(["diagnose", "error.log", "--content", Repository.content.path, "--format", "json"], in: scratch.url)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        XCTAssertFalse(report.causes.isEmpty, "no article explains nginx's lines:\n\(nginx.errorLog)", file: file, line: line)
        return (statuses, report.causes)
    }

    private func assertLeads(_ reproduced: (statuses: [Int], causes: [Report.Cause]), to slug: String, status: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(reproduced.statuses.last, status, "what the visitor gets", file: file, line: line)
        XCTAssertEqual(reproduced.causes.map(\.slug), [slug], file: file, line: line)
        XCTAssertTrue(reproduced.causes.first?.statuses.contains(status) == true, "the article names the status visitors get, \(status)", file: file, line: line)
    }

    func testAnUpstreamThatNeverAnswersIsATimeout() throws {
        let upstream = try FakeUpstream(.silent)
        defer { upstream.stop() }
        assertLeads(try reproduce("location / { proxy_pass http://127.0.0.1:\(upstream.port); }"), to: "upstream-timed-out", status: 504)
    }

    func testAnUpstreamThatClosesWithoutAnsweringIsPrematurelyClosed() throws {
        let upstream = try FakeUpstream(.closes)
        defer { upstream.stop() }
        assertLeads(try reproduce("location / { proxy_pass http://127.0.0.1:\(upstream.port); }"), to: "upstream-timed-out", status: 502)
    }

    func testAHeaderBiggerThanTheBufferIsTooBig() throws {
        let upstream = try FakeUpstream(.hugeHeader(bytes: 16_000))
        defer { upstream.stop() }
        assertLeads(try reproduce("location / { proxy_pass http://127.0.0.1:\(upstream.port); }"), to: "upstream-header-too-big", status: 502)
    }

    func testAMissingPHPFPMSocket() throws {
        assertLeads(try reproduce("location / { fastcgi_pass unix:/run/detour-test-missing/php8.2-fpm.sock; }"), to: "php-fpm-socket-unavailable", status: 502)
    }

    func testEveryServerOfAnUpstreamFailedIsNoLiveUpstreams() throws {
        // The first request fails to connect to both servers and marks them failed (nginx
        // ignores max_fails for an upstream of one server); the second finds none left to try.
        let reproduced = try reproduce("location / { proxy_pass http://app; }", http: "upstream app { server 127.0.0.1:\(LoopbackPort.free()) max_fails=1 fail_timeout=30s; server 127.0.0.1:\(LoopbackPort.free()) max_fails=1 fail_timeout=30s; }", requests: 2)
        XCTAssertEqual(reproduced.statuses, [502, 502])
        XCTAssertEqual(Set(reproduced.causes.map(\.slug)), ["upstream-connection-refused", "health-checks-mark-all-backends-down"])
        XCTAssertTrue(reproduced.causes.first { $0.slug == "health-checks-mark-all-backends-down" }?.statuses.contains(502) == true, "the article names 502")
    }
}
