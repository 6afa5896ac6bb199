import DetourSupport
import Foundation
import XCTest

final class ByteSearchTests: XCTestCase {
    func testFindsTheFirstOccurrenceAfterAFalseStart() {
        let text = "expression {err.status} >= 500 {err.status_code}"
        let found = ByteSearch.firstRange(of: "{err.status_code}", in: text)
        XCTAssertEqual(found.map { String(text[$0]) }, "{err.status_code}")
        XCTAssertEqual(found.map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) }, 31)
        XCTAssertTrue(ByteSearch.contains("aab", in: "aaab"))
        XCTAssertFalse(ByteSearch.contains("aab", in: "aaba"[...].dropLast(2)))
        XCTAssertFalse(ByteSearch.contains("://", in: "example.com:/8080"))
        XCTAssertEqual(ByteSearch.firstRange(of: "", in: "abc"), "abc".startIndex..<"abc".startIndex)
    }

    /// Against Foundation's literal search on generated words, non-ASCII letters among them.
    func testAgreesWithALiteralSearch() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Character] = ["a", "b", ":", "/", "é"]
        func word(_ length: Int) -> String { String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }) }
        for _ in 0..<2000 {
            let text = word(Int.random(in: 0...12, using: &generator))
            let part = word(Int.random(in: 1...3, using: &generator))
            let expected = text.range(of: part, options: .literal)
            let found = ByteSearch.firstRange(of: part, in: text)
            XCTAssertEqual(found, expected, "\(part) in \(text)")
        }
    }
}
