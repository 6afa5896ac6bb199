import DetourTestSupport
import XCTest

@testable import DetourSearch

/// The index's word table answers as a dictionary of the same words would: generated words of
/// every length from a small alphabet (so many share beginnings and hashes collide in the
/// slots), past several growths of the table, each looked up before and after it is stored.
final class SearchWordTableTests: XCTestCase {
    func testItAnswersAsADictionaryOfTheSameWords() {
        var random = SplitMix64(state: 31)
        var table = SearchWordTable<Int>()
        var expected: [[UInt8]: Int] = [:]
        for round in 0..<40_000 {
            let length = Int.random(in: 1...40, using: &random)
            let word = (0..<length).map { _ in UInt8.random(in: 0x61...0x64, using: &random) }
            word.withUnsafeBufferPointer { bytes in
                XCTAssertEqual(table.value(for: bytes), expected[word], "before storing word \(round)")
                if expected[word] == nil {
                    table.insert(round, for: bytes)
                    expected[word] = round
                }
                XCTAssertEqual(table.value(for: bytes), expected[word], "after storing word \(round)")
            }
        }
        XCTAssertGreaterThan(expected.count, 20_000, "the table grew well past its first size")
        for (word, value) in expected {
            word.withUnsafeBufferPointer { XCTAssertEqual(table.value(for: $0), value) }
        }
    }
}
