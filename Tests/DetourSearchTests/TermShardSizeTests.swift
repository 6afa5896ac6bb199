import DetourTestSupport
import XCTest

@testable import DetourSearch

/// A shard count is judged by the sizes of the shards it would make (`largestShard`), computed
/// from each bucket's lines without writing them: the size each judged count's texts really
/// have, on generated pages with word forms, on every count the builder may try.
final class TermShardSizeTests: XCTestCase {
    func testTheJudgedSizeIsTheWrittenSize() {
        var random = SplitMix64(state: 20_261_126)
        let words = ["connection", "connections", "timed", "timeout", "proxy", "requests", "zeitüberschreitung", "接続エラー", "a\"b", "x\\y"]
        let pages = (0..<300).map { number in
            let text = (0..<(5 + Int(random.next() % 60))).map { _ in
                random.next() % 3 == 0 ? "w\(random.next() % 5000)ing" : words[Int(random.next() % UInt64(words.count))]
            }
            return SearchPage(url: "articles/p\(number)/", title: "Page \(number)", codes: [], text: text.joined(separator: " "))
        }
        for language in ["en", "ja"] {
            let tokenizer = SearchTokenizer(language: language)
            let chunks = SearchIndexBuilder.score(pages, pages.indices.map { (page: $0, reference: $0) }, tokenizer: tokenizer, until: { false })!
            var forms = [[String: String]](repeating: [:], count: SearchIndexLayout.termBuckets)
            for chunk in chunks {
                for (word, stem) in chunk.vocabulary.forms { forms[SearchIndexLayout.termBucket(of: word)][word] = stem }
            }
            let buckets = SearchIndexBuilder.bucketLines(chunks: chunks, forms: forms)
            for count in [1, 2, 16, 256, SearchIndexLayout.termBuckets] {
                let written = SearchIndexBuilder.termShardTexts(buckets, count: count).map(\.utf8.count).max()
                XCTAssertEqual(SearchIndexBuilder.largestShard(buckets, count: count), written, "\(language), \(count) shards")
            }
        }
    }
}
