import XCTest

@testable import DetourSearch

/// A term's kept postings are exactly what sorting all of them and keeping the first would
/// give: generated lists of every size around the limit, with few and many distinct impacts.
final class BestPostingsTests: XCTestCase {
    func testTheBestPostingsAreTheFirstOfTheFullSort() {
        var random = SystemRandomNumberGenerator()
        for size in [0, 1, 199, 200, 201, 1_000, 25_000] {
            for impacts in [1, 3, 255] {
                let postings = (0..<size).map { _ in
                    (reference: Int32.random(in: 0..<100_000, using: &random), impact: UInt8.random(in: 1...UInt8(impacts), using: &random))
                }
                let expected = postings.sorted { ($0.impact, $1.reference) > ($1.impact, $0.reference) }.prefix(200)
                let best = SearchIndexBuilder.best(postings, count: 200)
                XCTAssertEqual(best.map(\.reference), expected.map(\.reference), "\(size) postings, \(impacts) impacts")
                XCTAssertEqual(best.map(\.impact), expected.map(\.impact), "\(size) postings, \(impacts) impacts")
            }
        }
    }
}

/// A posting packs its three numbers into eight bytes: each reads back at its extremes, and
/// postings sort by term first whatever their other numbers.
final class PostingTests: XCTestCase {
    func testEachNumberReadsBackAndTheTermSortsFirst() {
        var random = SystemRandomNumberGenerator()
        let largestReference = Int32(16384 * SearchIndexLayout.pagesPerDocShard * SearchIndexLayout.recordsPerPage - 1)
        var postings: [SearchIndexBuilder.Posting] = []
        for term in [0, 1, SearchIndexBuilder.Posting.termLimit - 1] as [Int32] {
            for reference in [0, 64, largestReference] as [Int32] {
                for impact in [1, 128, 255] as [UInt8] {
                    let posting = SearchIndexBuilder.Posting(term: term, reference: reference, impact: impact)
                    XCTAssertEqual([posting.term, posting.reference, Int32(posting.impact)], [term, reference, Int32(impact)])
                    postings.append(posting)
                }
            }
        }
        postings.shuffle(using: &random)
        let sorted = postings.sorted { $0.bits < $1.bits }
        XCTAssertEqual(sorted.map(\.term), postings.map(\.term).sorted())
    }
}
