import DetourLogs
import XCTest

/// Thousands of patterns that begin alike (one knowledge base article per upstream server, all
/// quoting nginx's `connect() failed`) share the matcher's window: the line still goes to the
/// one whose whole text it holds, and to the general pattern when none does.
final class LogMatcherTests: XCTestCase {
    func testPatternsThatBeginAlikeEachExplainTheirOwnLines() {
        let message = "connect() failed (111: Connection refused) while connecting to upstream"
        let names = (0..<3_000).map { number in
            "shop-" + String(String(number, radix: 26).map { Character(Unicode.Scalar(UInt8($0.hexDigitValue ?? 0) + UInt8(ascii: "a"))) })
        }
        let causes =
            [LogCause(slug: "refused", title: "Refused", url: "/refused/", statuses: [502], patterns: [message])]
            + names.map { LogCause(slug: $0, title: $0, url: "/\($0)/", statuses: [502], patterns: ["\(message), server: \($0)"]) }
        let matcher = LogMatcher(causes)
        for number in [0, 1, 25, 26, 999, 2_999] {
            let line = "2026/11/25 10:00:00 [error] 7#7: *1 \(message), server: \(names[number]), request: \"GET / HTTP/1.1\""
            XCTAssertEqual(matcher.explanation(of: line).map { causes[$0.cause].slug }, names[number], line)
        }
        let unknown = "2026/11/25 10:00:00 [error] 7#7: *1 \(message), server: elsewhere, request: \"GET / HTTP/1.1\""
        XCTAssertEqual(matcher.explanation(of: unknown).map { causes[$0.cause].slug }, "refused")
        XCTAssertNil(matcher.explanation(of: "2026/11/25 10:00:00 [error] 7#7: *1 no live upstreams while connecting to upstream"))
    }
}
