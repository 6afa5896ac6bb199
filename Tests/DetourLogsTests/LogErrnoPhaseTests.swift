import XCTest

@testable import DetourLogs

/// An nginx line is explained by its errno and phase whatever call reports them.
final class LogErrnoPhaseTests: XCTestCase {
    private let line =
        #"2026/11/30 10:00:00 [error] 123#123: *1 CALL, client: 1.2.3.4, server: example.com, request: "GET / HTTP/1.1", upstream: "http://10.0.0.5:8080/", host: "example.com""#

    private func slug(_ call: String, _ causes: [LogCause]) -> String? {
        LogMatcher(causes).explanation(of: line.replacingOccurrences(of: "CALL", with: call)).map { causes[$0.cause].slug }
    }

    func testAnUnseenCallWithAKnownErrnoAndPhaseIsExplained() {
        let causes = [
            LogCause(
                slug: "connect-timeout", title: "", url: "", statuses: [504],
                patterns: ["upstream timed out (110: Connection timed out) while connecting to upstream"]),
            LogCause(
                slug: "read-timeout", title: "", url: "", statuses: [504],
                patterns: ["upstream timed out (110: Connection timed out) while reading response header from upstream"]),
        ]
        XCTAssertEqual(slug("connect() failed (110: Connection timed out) while connecting to upstream", causes), "connect-timeout")
        // musl's wording of the same errno, and another call in the other phase.
        XCTAssertEqual(slug("connect() failed (110: Operation timed out) while connecting to upstream", causes), "connect-timeout")
        XCTAssertEqual(slug("recv() failed (110: Connection timed out) while reading response header from upstream", causes), "read-timeout")
        // A known errno in a phase no article names, and an unknown errno in a known phase.
        XCTAssertNil(slug("upstream timed out (110: Connection timed out) while SSL handshaking to upstream", causes))
        XCTAssertNil(slug("connect() failed (101: Network is unreachable) while connecting to upstream", causes))
    }

    func testAPatternForTheWholeLineWinsOverTheErrnoAndPhase() {
        let causes = [
            LogCause(slug: "closed", title: "", url: "", statuses: [502], patterns: ["recv() failed (104: Connection reset by peer) while reading upstream"]),
            LogCause(
                slug: "killed", title: "", url: "", statuses: [502],
                patterns: ["readv() failed (104: Connection reset by peer) while reading upstream, client: … upstream: \"uwsgi://"]),
        ]
        XCTAssertEqual(slug("recv() failed (104: Connection reset by peer) while reading upstream", causes), "closed")
        XCTAssertEqual(slug("readv() failed (104: Connection reset by peer) while reading upstream", causes), "closed")
    }

    func testAUnixSocketsErrnoAndAPairTwoArticlesClaimAddNothing() {
        let causes = [
            LogCause(
                slug: "socket", title: "", url: "", statuses: [502],
                patterns: ["connect() to unix:… failed (13: Permission denied) while connecting to upstream"]),
            LogCause(
                slug: "one", title: "", url: "", statuses: [502], patterns: ["upstream sent nothing (104: Connection reset by peer) while reading upstream"]),
            LogCause(slug: "two", title: "", url: "", statuses: [502], patterns: ["recv() failed (104: Connection reset by peer) while reading upstream"]),
        ]
        XCTAssertEqual(slug("connect() to unix:/run/php/php8.2-fpm.sock failed (13: Permission denied) while connecting to upstream", causes), "socket")
        // The same errno from a TCP address: SELinux or a firewall, not the socket's mode.
        XCTAssertNil(slug("connect() to 10.0.0.5:8080 failed (13: Permission denied) while connecting to upstream", causes))
        XCTAssertNil(slug("readv() failed (104: Connection reset by peer) while reading upstream", causes))
    }

    func testThePairIsCutFromTheEndOfAPattern() {
        XCTAssertEqual(
            LogErrnoPhase.pair(in: "upstream timed out (110: Connection timed out) while connecting to upstream"),
            "(110: Connection timed out) while connecting to upstream")
        XCTAssertEqual(
            LogErrnoPhase.pair(in: "connect() failed (`111`: Unknown error) while connecting to upstream"),
            "(`111`: Unknown error) while connecting to upstream")
        XCTAssertNil(LogErrnoPhase.pair(in: "(110: Connection timed out) while connecting to upstream"))
        XCTAssertNil(LogErrnoPhase.pair(in: "SSL_do_handshake() failed (…) while SSL handshaking to upstream"))
        XCTAssertNil(LogErrnoPhase.pair(in: "upstream timed out (110: Connection timed out) while "))
    }
}
