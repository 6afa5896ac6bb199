import DetourTestSupport
import XCTest

@testable import DetourLogs

/// The matcher against the plainest search there is: every pattern's anchor looked for at
/// every place in the line, the pattern with the most literal text winning (the line read by
/// its errno and phase only when none matches). Patterns are drawn
/// from words that begin and end alike, as real log messages do, so windows placed anywhere
/// in an anchor collide, crowd and overlap.
final class LogMatcherOracleTests: XCTestCase {
    private static let words = [
        "upstream", "upstream sent", "upstream timed out", "sent", "stream", "connect() failed", "connect() to", "failed",
        "while reading", "while reading response header from upstream", "client:", "server:", "(111: Connection refused)",
        "- - SC--", "[emerg]", "FastCGI", "FastCGI sent in stderr", "upstream: \"grpc", "upstream: \"http", "…", "10.0.0.1:8080", "/run/php.sock",
    ]

    func testTheMatcherFindsWhatLookingEverywhereFinds() {
        var random = SplitMix64(state: 20_261_201)
        for round in 0..<150 {
            let causes = (0..<Int.random(in: 1...40, using: &random)).map { number in
                LogCause(slug: "c\(number)", title: "", url: "", statuses: [], patterns: [Self.text(2...5, &random)])
            }
            let matcher = LogMatcher(causes)
            for _ in 0..<20 {
                let line = "2026/12/01 08:00:00 [error] 7#7: *1 " + Self.text(3...12, &random)
                let expected = Self.lookEverywhere(causes, line)
                var found = matcher.explanation(of: line)
                // A line no written pattern matches is read by its errno and phase as well.
                if let read = found, !causes[read.cause].patterns.map(\.text).contains(read.pattern.text) {
                    XCTAssertNil(expected, "round \(round): \(line)")
                    found = nil
                }
                XCTAssertEqual(found?.pattern.specificity, expected?.specificity, "round \(round): \(line)\n\(causes.map(\.patterns))")
                if let found, let expected { XCTAssertTrue(expected.causes.contains(found.cause), "round \(round): \(line)") }
            }
        }
    }

    private static func text(_ count: ClosedRange<Int>, _ random: inout SplitMix64) -> String {
        (0..<Int.random(in: count, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
    }

    /// The most literal text any matching pattern has, and every cause with a pattern of it.
    private static func lookEverywhere(_ causes: [LogCause], _ line: String) -> (specificity: Int, causes: Set<Int>)? {
        let bytes = Array(line.utf8)
        var best: (specificity: Int, causes: Set<Int>)?
        bytes.withUnsafeBufferPointer { line in
            for (index, cause) in causes.enumerated() {
                for pattern in cause.patterns where pattern.anchor.count >= 2 && pattern.anchor.count <= line.count {
                    let found = (0...(line.count - pattern.anchor.count)).contains { start in
                        line[start..<start + pattern.anchor.count].elementsEqual(pattern.anchor) && pattern.matches(line, anchorAt: start)
                    }
                    guard found else { continue }
                    if pattern.specificity > best?.specificity ?? -1 {
                        best = (pattern.specificity, [index])
                    } else if pattern.specificity == best?.specificity {
                        best?.causes.insert(index)
                    }
                }
            }
        }
        return best
    }
}
