import DetourTestSupport
import Foundation
import XCTest

@testable import DetourSearch

/// A query loads the entry, its words' term shards and a page shard: each term shard stays
/// under its budget however many distinct words a small site has, so no query loads much.
final class SearchIndexShardTests: XCTestCase {
    /// Pages of made-up words, as a knowledge base full of identifiers and log lines is.
    private func pages(count: Int, wordsPerPage: Int) -> [SearchPage] {
        var state: UInt64 = 20_261_124
        func next() -> UInt64 {
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return (0..<count).map { number in
            let words = (0..<wordsPerPage).map { _ in String((0..<(5 + Int(next() % 8))).map { _ in letters[Int(next() % 26)] }) }
            return SearchPage(url: "articles/a\(number)/", title: "Article \(number)", codes: [], text: words.joined(separator: " "))
        }
    }

    func testTermShardsStayUnderTheirBudgetOnASmallSiteWithManyWords() throws {
        let files = SearchIndexBuilder.build(pages(count: 40, wordsPerPage: 600), language: "fr", languages: ["fr"]).files
        let termFiles = files.filter { $0.path.hasPrefix("t") }
        XCTAssertGreaterThan(termFiles.count, 1, "24,000 words are more than one shard's budget: \(files.map(\.path))")
        for file in termFiles {
            // The budget is the shard's data; the file adds its call around it.
            XCTAssertLessThanOrEqual(file.contents.utf8.count, SearchIndexLayout.termShardBudget + 64, file.path)
        }
        let entry = try XCTUnwrap(files.first { $0.path == "index.js" }?.contents)
        XCTAssertTrue(entry.contains("\"termShards\":\(termFiles.count)"), "the entry names as many shards as were written")
        XCTAssertFalse(entry.contains("\"terms\""), "terms over budget are not inlined in the entry")
    }

    /// The search page carries the entry of an index of many files, so its first request is for
    /// a query's terms: the same object as `index.js`, and JSON.
    func testAnIndexOfManyFilesHasAHeadForTheSearchPage() throws {
        let output = SearchIndexBuilder.build(pages(count: 40, wordsPerPage: 600), language: "fr", languages: ["fr"])
        let head = try XCTUnwrap(output.head)
        XCTAssertEqual(output.files.first { $0.path == "index.js" }?.contents, "detourSearch.entry(\"fr\",\(head));\n")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(head.utf8)) as? [String: Any])
        XCTAssertEqual(object["termShards"] as? Int, output.files.filter { $0.path.hasPrefix("t") }.count)
        XCTAssertNil(SearchIndexBuilder.build(pages(count: 10, wordsPerPage: 20), language: "fr", languages: ["fr"]).head, "one file: nothing to carry")
    }

    /// A pasted log line has many words, each in its own term shard: the terms of the pages'
    /// log lines are also written to one file, with only those pages' postings.
    func testTheLogLinesTermsAreOneFileOfTheirOwn() throws {
        var pages = pages(count: 40, wordsPerPage: 600)
        pages[3].logPatterns = ["upstream timed out (110: Connection timed out) while reading response header from upstream"]
        let files = SearchIndexBuilder.build(pages, language: "en", languages: ["en"]).files
        let logs = try XCTUnwrap(files.first { $0.path == "l.js" }?.contents, "\(files.map(\.path))")
        for term in ["\"upstream\"", "\"110\"", "\"respons\"", "\"header\""] {
            XCTAssertTrue(logs.contains(term + ":[1,"), "\(term) is in the log file with its one page: \(logs.prefix(300))")
        }
        XCTAssertFalse(logs.contains("\"articl\""), "a word of no log line (the titles' \"Article\") stays out of it")
        // The entry's filter of the log file's words, as search.js reads it.
        let head = try XCTUnwrap(SearchIndexBuilder.build(pages, language: "en", languages: ["en"]).head)
        let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(head.utf8)) as? [String: Any])
        let filter = [UInt8](try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(entry["logs"] as? String))))
        let inLog = { (word: String) in
            [word, word + "!"].allSatisfy {
                let bit = Int(SearchIndexLayout.hash($0) % UInt32(filter.count * 8))
                return filter[bit >> 3] & (1 << UInt8(bit & 7)) != 0
            }
        }
        for word in ["upstream", "110", "respons", "response", "header", "timed"] { XCTAssertTrue(inLog(word), word) }
        let strangers = (0..<1000).map { "stranger\($0)" }.filter(inLog)
        XCTAssertLessThan(strangers.count, 60, "a few words in a hundred get through: \(strangers.prefix(10))")
        XCTAssertFalse(
            SearchIndexBuilder.build(self.pages(count: 40, wordsPerPage: 600), language: "en", languages: ["en"]).files.contains { $0.path == "l.js" },
            "no log lines, no file")
    }

    /// On a large site, each page's log line names its own host: the log file keeps the words
    /// the lines share within its budget, and leaves each page's own name to its term shard,
    /// where the browser looks up a pasted line's word the file lacks.
    func testALargeSitesLogFileKeepsToItsBudget() throws {
        var pages = pages(count: 3000, wordsPerPage: 40)
        for number in pages.indices {
            let host = pages[number].text.split(separator: " ")[0]
            pages[number].logPatterns = ["upstream timed out (110: Connection timed out) while reading response header from upstream, server: shop-\(host)"]
        }
        let files = SearchIndexBuilder.build(pages, language: "en", languages: ["en"]).files
        let logs = try XCTUnwrap(files.first { $0.path == "l.js" }?.contents)
        let head = String(logs.prefix { $0 != "{" })
        XCTAssertEqual(head, "detourSearch.logs(\"en\",3000,", "the rarity of a log term is among the 3,000 pages' log lines, its own left out or not")
        XCTAssertLessThanOrEqual(logs.utf8.count - head.utf8.count - 3, SearchIndexLayout.logFileBudget)
        XCTAssertTrue(logs.contains("\"upstream\":[3000,"), "a word every line has stays: \(logs.prefix(200))")
        // Its count over the site too: its term line's first number.
        let siteCounts = try files.filter { $0.path.hasPrefix("t") }.compactMap { file in
            try XCTUnwrap(SearchIndexTermFile(file.contents, head: String(file.contents.prefix { $0 != "{" }))).text(of: "upstream")
                .flatMap(SearchIndexTermFile.numbers)?.first
        }
        XCTAssertEqual(siteCounts.count, 1, "one term line")
        XCTAssertEqual(try XCTUnwrap(SearchIndexTermFile(logs, head: head)).siteCounts?.first { $0.term == "upstream" }?.count, siteCounts.first)
        let host = String(pages[7].text.split(separator: " ")[0])
        XCTAssertFalse(logs.contains("\"\(host)\""), "one page's host is left out")
        let shard = SearchIndexLayout(pages: 3000, records: 3000).termShard(of: host)
        XCTAssertTrue(files.contains { $0.path.hasPrefix("t") && $0.contents.contains("\"\(host)\":[") }, "its term shard has it (\(shard) of some)")
    }

    /// Over its budget, the log file cuts its lines shorter before it lets a word go: a word
    /// two pages' log lines share is what tells a pasted line's page from the thousands that
    /// share its common words, and each of those ranks by its best postings alone anyway.
    func testALogFileOverBudgetCutsItsLinesBeforeItsWords() throws {
        var pages = pages(count: 3000, wordsPerPage: 40)
        for number in pages.indices {
            let host = pages[number].text.split(separator: " ")[0]
            pages[number].logPatterns = ["upstream timed out (110: Connection timed out) while reading response header from upstream, server: shop-\(host)"]
        }
        // 600 words, each in the log lines of two pages.
        for pair in 0..<600 {
            let word = pages[2 * pair].text.split(separator: " ")[1]
            for number in [2 * pair, 2 * pair + 1] { pages[number].logPatterns.append("SSL handshake with \(word) failed") }
        }
        let files = SearchIndexBuilder.build(pages, language: "en", languages: ["en"]).files
        let logs = try XCTUnwrap(files.first { $0.path == "l.js" }?.contents)
        let head = String(logs.prefix { $0 != "{" })
        let file = try XCTUnwrap(SearchIndexTermFile(logs, head: head))
        XCTAssertLessThanOrEqual(file.body.utf8.count, SearchIndexLayout.logFileBudget, "its terms and forms; their counts over the site are beside it")
        for pair in [0, 299, 599] {
            let word = String(pages[2 * pair].text.split(separator: " ")[1])
            let numbers = try XCTUnwrap(file.text(of: word).flatMap(SearchIndexTermFile.numbers), "\(word) stays in the log file")
            XCTAssertEqual(numbers.count, 5, "with both its pages: \(numbers)")
        }
        let upstream = try XCTUnwrap(file.text(of: "upstream").flatMap(SearchIndexTermFile.numbers))
        XCTAssertEqual(upstream.first, 3000, "its count is every log line's")
        XCTAssertLessThan(upstream.count, 1 + 2 * SearchIndexBuilder.postingsPerTerm, "its line is cut shorter than a term shard's")
        XCTAssertNil(file.text(of: String(pages[7].text.split(separator: " ")[0])), "one page's host is left out")
    }

    /// A line's plain words, each on one page's line, outlast the hosts of as many pages when
    /// the log file is over budget: a short pasted line is read from it. The entry's `pairs`
    /// says which of them a line has side by side, as search.js pairs a query's words.
    func testALogLinesPlainWordsOutlastOnePagesHostsAndItsPairsAreInTheEntry() throws {
        var pages = pages(count: 3000, wordsPerPage: 40)
        for number in pages.indices {
            let host = pages[number].text.split(separator: " ")[0]
            pages[number].logPatterns = ["upstream timed out (110: Connection timed out) while reading response header from upstream, server: shop-\(host)"]
        }
        pages[5].logPatterns.append("Pass delivery abandoned")
        let output = SearchIndexBuilder.build(pages, language: "en", languages: ["en"])
        let logs = try XCTUnwrap(output.files.first { $0.path == "l.js" }?.contents)
        XCTAssertFalse(logs.contains("\"shop-\(pages[7].text.split(separator: " ")[0])\""), "one page's host is left out")
        for term in ["pass", "deliveri", "abandon"] { XCTAssertTrue(logs.contains("\"\(term)\":[1,"), "\(term) stays, with its one page") }

        let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try XCTUnwrap(output.head).utf8)) as? [String: Any])
        let pairs = LogTermFilter(encoded: try XCTUnwrap(entry["pairs"] as? String))
        XCTAssertTrue(try XCTUnwrap(pairs).contains("pass delivery") && pairs!.contains("delivery abandoned"))
    }

    /// The plain words of log lines, and their neighbours: a number or an identifier parts two
    /// words, a word a query drops does not.
    func testPlainWordsAndTheirNeighbours() {
        let lines = ["connect() failed (111: Connection refused) while connecting to upstream, client: 10.0.0.1", "Pass delivery abandoned"]
        let plain = LogTermFilter.plainWords(in: lines, tokenizer: SearchTokenizer(language: "en"), fillers: Set(QuestionWords.words(for: "en")))
        XCTAssertEqual(plain.words, ["connect", "failed", "connection", "refused", "connecting", "upstream", "client", "pass", "delivery", "abandoned"])
        XCTAssertEqual(
            plain.pairs,
            ["connect failed", "connection refused", "refused connecting", "connecting upstream", "upstream client", "pass delivery", "delivery abandoned"])
    }

    /// A status page's reason phrase, and its former ones, are in the entry, cut as the browser cuts a query: beside
    /// `502`, the words `Bad Gateway` only name the status, and the browser drops them.
    func testTheEntryNamesEachStatusPagesReasonPhrase() throws {
        var pages = pages(count: 40, wordsPerPage: 600)
        var page = SearchPage(url: "codes/504/", title: "504 Gateway Timeout", codes: [504], definesStatus: 504, text: "The proxy waited.")
        page.aliases = ["Gateway Time-out"]
        pages.append(page)
        let head = try XCTUnwrap(SearchIndexBuilder.build(pages, language: "en", languages: ["en"]).head)
        let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(head.utf8)) as? [String: Any])
        XCTAssertEqual(entry["why"] as? [String: String], ["504": "gateway timeout time-out time out"], "its former phrase too")
    }

    /// An index a newer save made old is given up once asked; one never asked to stop is the
    /// same index as ever.
    func testABuildAskedToStopGivesUpAndOneNotAskedIsTheSame() throws {
        let many = pages(count: 200, wordsPerPage: 300)
        XCTAssertNil(SearchIndexBuilder.build(many, language: "en", languages: ["en"], until: { true }))
        let whole = try XCTUnwrap(SearchIndexBuilder.build(many, language: "en", languages: ["en"], until: { false }))
        let plain = SearchIndexBuilder.build(many, language: "en", languages: ["en"])
        XCTAssertEqual(whole.files.map(\.path), plain.files.map(\.path))
        XCTAssertEqual(whole.files.map(\.contents), plain.files.map(\.contents))
        XCTAssertEqual(whole.head, plain.head)
    }

    /// Three thousand host names under one start (`shop-…`) are more than a term file holds:
    /// the start is cut by longer ones, as far as it takes, and the entry lists them. Every
    /// term file stays under budget, and each term is in the file its key names.
    func testAStartOverBudgetAloneIsCutByLongerStarts() throws {
        var random = SplitMix64(state: 20_261_206)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var hosts: [String] = []
        let pages = (0..<300).map { number in
            let names = (0..<10).map { _ in "shop-" + String((0..<4).map { _ in letters[Int(random.next() % 26)] }) }
            hosts += names
            return SearchPage(
                url: "articles/a\(number)/", title: "Article \(number)", codes: [],
                text: "upstream timed out, server: " + names.joined(separator: ", server: ") + ", while the shelter shook")
        }
        let output = SearchIndexBuilder.build(pages, language: "en", languages: ["en"])
        let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try XCTUnwrap(output.head).utf8)) as? [String: Any])
        let split = try XCTUnwrap(entry["split"] as? [String], "the entry lists the starts cut")
        XCTAssertEqual(split, ["sh", "sho", "shop", "shop-"], "each start over budget is cut, down to `shop-`, whose next letter spreads them")
        let termShards = try XCTUnwrap(entry["termShards"] as? Int)
        let files = Dictionary(uniqueKeysWithValues: output.files.map { ($0.path, $0.contents) })
        for (path, text) in files where path.hasPrefix("t") {
            XCTAssertLessThanOrEqual(text.utf8.count, SearchIndexLayout.termShardBudget + 64, path)
        }
        for term in hosts + ["shelter", "shook", "upstream"] {
            let shard = SearchIndexLayout.termBucket(of: term, split: Set(split)) % termShards
            XCTAssertTrue(files["t\(shard).js"]?.contains("\"\(term)\":[") == true, "\(term) is in t\(shard).js, as its key names")
        }
    }

    func testASmallSiteWithFewWordsStaysOneFile() {
        let files = SearchIndexBuilder.build(pages(count: 10, wordsPerPage: 20), language: "fr", languages: ["fr"]).files
        XCTAssertEqual(files.map(\.path), ["index.js"])
    }
}
