import Foundation
import XCTest

@testable import DetourSearch

/// A card is what the page shard says of the record, for the records the browser expects it
/// for: the best record of each of the first ten pages on a term's line.
final class SearchIndexCardsTests: XCTestCase {
    /// 1,100 pages (cards begin at about a thousand); `upstream` on every page, in the title of
    /// every seventh (so it ranks), in a section of every third; `rare<n>` on one page each;
    /// `samovar` on four pages, as many as the site's card minimum, `teapot` on one more.
    private static let pages: [SearchPage] = (0..<1100).map { number in
        SearchPage(
            url: "articles/a\(number)/", title: number % 7 == 0 ? "Upstream \(number)" : "Article \(number)", codes: number % 11 == 0 ? [502] : [],
            text: "Text of article \(number) with the word upstream and rare\(number)." + (number % 275 == 0 ? " A samovar." : "")
                + (number % 220 == 0 ? " A teapot." : ""),
            sections: number % 3 == 0
                ? [SearchPage.Section(anchor: "part", title: "Part \(number)", text: "A upstream section, \"quoted\" <b>as written</b>.")] : [])
    }

    private func build() -> [String: String] {
        var files: [String: String] = [:]
        for file in SearchIndexBuilder.build(Self.pages, language: "en", languages: ["en"]).files { files[file.path] = file.contents }
        return files
    }

    func testEachCardIsItsRecordAsThePageShardHasIt() throws {
        let files = build()
        let layout = SearchIndexLayout(pages: Self.pages.count, records: Self.pages.reduce(0) { $0 + SearchIndexLayout.records(of: $1) })
        XCTAssertGreaterThan(layout.cardShards, 0)
        XCTAssertEqual(layout.cardMinimum, SearchIndexLayout.cardsOver)
        XCTAssertTrue(
            try XCTUnwrap(files["index.js"]).contains("\"cards\":[\(layout.cardShards),\(SearchIndexLayout.cardsOver)]"), "the entry names the card files")

        // upstream's line, and the cards its card file holds.
        let termShard = layout.termShard(of: "upstream")
        let termFile = try XCTUnwrap(SearchIndexTermFile(try XCTUnwrap(files["t\(termShard).js"]), head: "detourSearch.terms(\"en\",\(termShard),"))
        let numbers = try XCTUnwrap(SearchIndexTermFile.numbers(of: try XCTUnwrap(termFile.lines.first { $0.term == "upstream" }?.text)))
        XCTAssertEqual(numbers[0], 1467, "every page and every third page's section")
        let expected = SearchIndexCards.carded(
            count: numbers[0], line: stride(from: 1, to: numbers.count, by: 2).map { (Int32(numbers[$0]), UInt8(numbers[$0 + 1])) }, over: layout.cardMinimum)
        XCTAssertEqual(expected.count, SearchIndexLayout.cardsPerTerm)
        XCTAssertEqual(Set(expected.map { $0 / 64 }).count, expected.count, "one record per page")

        let shard = layout.cardShard(of: "upstream")
        let cardLines = try XCTUnwrap(SearchIndexCards.lines(of: try XCTUnwrap(files["c\(shard).js"]), language: "en", shard: shard))
        let cardLine = try XCTUnwrap(cardLines.first { $0.term == "upstream" }?.line)
        let cards = try XCTUnwrap(SearchIndexCards.cards(of: cardLine, term: "upstream"))
        XCTAssertEqual(cards.map(\.reference), expected, "the records the browser looks for")
        XCTAssertEqual(cards.map(\.card).joined(separator: ","), String(cardLine.dropFirst("\"upstream\":[".count).dropLast()), "read back as written")

        // Every card of every file is its page shard's record.
        var checked = 0
        var sectionCard: String?
        for (path, text) in files where path.hasPrefix("c") {
            let number = try XCTUnwrap(Int(path.dropFirst().dropLast(3)))
            for (term, line) in try XCTUnwrap(SearchIndexCards.lines(of: text, language: "en", shard: number)) {
                XCTAssertEqual(layout.cardShard(of: term), number, term)
                for card in try XCTUnwrap(SearchIndexCards.cards(of: line, term: term)) {
                    let page = Int(card.reference) / 64
                    let (docShard, slot) = page.quotientAndRemainder(dividingBy: SearchIndexLayout.pagesPerDocShard)
                    let doc = try XCTUnwrap(files["d\(docShard).js"])
                    let pageLines = doc.drop { $0 != "[" }.dropFirst().dropLast(4).components(separatedBy: ",\n")
                    XCTAssertEqual(SearchIndexCards.card(reference: card.reference, pageLine: pageLines[slot]), card.card, "\(term) \(card.reference)")
                    checked += 1
                    if card.reference % 64 == 1 { sectionCard = card.card }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 2 * SearchIndexLayout.cardsPerTerm, "upstream's and the titles' words' cards")
        // What the browser reads: JSON, quotes and markup as text.
        let card = try XCTUnwrap(sectionCard, "a section's card (the word part)")
        let fields = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(card.utf8)) as? [Any])
        XCTAssertEqual(fields[4] as? String, "part")
        XCTAssertEqual(fields[6] as? String, "A upstream section, \"quoted\" <b>as written</b>.")
    }

    /// A pasted log line ranks the pages that have most of its words: a log term's cards go to
    /// the pages on the most of the log file's lines, before those the term weighs most in.
    func testALogTermsCardsGoToThePagesOnTheMostLogLines() throws {
        var pages = Self.pages
        // Sixty pages with log lines: a third with every word, two thirds with all but one,
        // those in their titles too.
        for number in 0..<60 {
            switch number % 3 {
            case 0: pages[number].logPatterns = ["worker reload failed reading socket"]
            case 1: (pages[number].title, pages[number].logPatterns) = ("Worker reload \(number)", ["worker reload reading socket"])
            default: (pages[number].title, pages[number].logPatterns) = ("Worker failed \(number)", ["worker failed reading socket"])
            }
        }
        var files: [String: String] = [:]
        for file in SearchIndexBuilder.build(pages, language: "en", languages: ["en"]).files { files[file.path] = file.contents }
        let layout = SearchIndexLayout(pages: pages.count, records: pages.reduce(0) { $0 + SearchIndexLayout.records(of: $1) })
        let everyWord = Set((0..<20).map { "articles/a\(3 * $0)/" })
        for term in ["worker", "reload", "fail"] {
            let key = SearchIndexCards.logKey(term)
            let shard = layout.cardShard(of: key)
            let line = try XCTUnwrap(
                SearchIndexCards.lines(of: try XCTUnwrap(files["c\(shard).js"]), language: "en", shard: shard)?.first { $0.term == key }?.line, key)
            let urls = try XCTUnwrap(SearchIndexCards.cards(of: line, term: key)).compactMap { card in
                (try? JSONSerialization.jsonObject(with: Data(card.card.utf8)) as? [Any])?[1] as? String
            }
            XCTAssertTrue(urls.allSatisfy(everyWord.contains), "\(key): the pages with every word, not \(urls)")
            XCTAssertEqual(urls.count, SearchIndexLayout.cardsPerTerm, key)
        }
    }

    func testRareTermsAndSmallerSitesHaveNoCards() throws {
        let files = build()
        XCTAssertFalse(files.values.contains { $0.hasPrefix("detourSearch.cards") && $0.contains("\"rare1\":") }, "a term on one record")
        XCTAssertFalse(files.values.contains { $0.hasPrefix("detourSearch.cards") && $0.contains("\"1099\":") }, "a number on one page")
        XCTAssertFalse(
            files.values.contains { $0.hasPrefix("detourSearch.cards") && $0.contains("\"samovar\":") }, "a word on four records: four page shards at most")
        let layout = SearchIndexLayout(pages: Self.pages.count, records: Self.pages.reduce(0) { $0 + SearchIndexLayout.records(of: $1) })
        let shard = layout.cardShard(of: "teapot")
        let lines = try XCTUnwrap(SearchIndexCards.lines(of: try XCTUnwrap(files["c\(shard).js"]), language: "en", shard: shard))
        let teapot = try XCTUnwrap(lines.first { $0.term == "teapot" }?.line, "a word on five records")
        let urls = try XCTUnwrap(SearchIndexCards.cards(of: teapot, term: "teapot")).map { card in
            (try? JSONSerialization.jsonObject(with: Data(card.card.utf8)) as? [Any])?[1] as? String
        }
        XCTAssertEqual(Set(urls), Set([0, 220, 440, 660, 880].map { "articles/a\($0)/" }), "its five pages")
        var small: [String: String] = [:]
        for file in SearchIndexBuilder.build(Array(Self.pages.prefix(1000)), language: "en", languages: ["en"]).files { small[file.path] = file.contents }
        XCTAssertFalse(small.keys.contains { $0.hasPrefix("c") }, "a thousand pages' common words would outweigh their text: \(small.keys.sorted())")
        XCTAssertFalse(try XCTUnwrap(small["index.js"]).contains("\"cards\""))
    }
}
