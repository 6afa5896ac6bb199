import DetourTestSupport
import Foundation
import XCTest

/// A site large enough for card files (`SearchIndexCards`), opened from disk in Chromium: a
/// common word's results come from its card file, and show what the pages' own shards show.
final class SearchCardsBrowserTests: XCTestCase {
    func testACommonWordsResultsComeFromItsCardsAndMatchThePageShards() throws {
        let site = try SampleSite.shipped()
        defer { site.remove() }
        var notes: [String: String] = [:]
        for number in 0..<1000 {
            notes["content/articles/notes/note-\(number).md"] = """
                ---
                title: \(number % 5 == 0 ? "Quillwort" : "Field") note \(number)
                summary: Note \(number) of a set about one plant.
                audience: operator
                ---

                The quillwort of note \(number) grows by the water.

                ## Where it grows

                \(String(repeating: "Quillwort by the lake. ", count: 1 + number % 4))Seen \(number) times.
                """
        }
        try site.write(notes)
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: site.url).status, 0)
        let index = site.url.appendingPathComponent("public/search/en")
        let cardFiles = try FileManager.default.contentsOfDirectory(atPath: index.path).filter { $0.hasPrefix("c") && $0.hasSuffix(".js") }
        XCTAssertFalse(cardFiles.isEmpty, "1,077 pages: the index has card files")

        let page = site.url.appendingPathComponent("public/search/index.html").absoluteString + "?q=quillwort"
        let results = SearchResultsMarkup.results(try Chromium.dumpDOM(page))
        XCTAssertEqual(results.count, 10, "ten results")
        XCTAssertTrue(results.allSatisfy { $0.contains("class=\"excerpt\"") && $0.contains("<mark>") }, "each with its excerpt: \(results)")

        let carded = try Self.resultsFromCards(cardFiles, in: index, page: page)
        XCTAssertGreaterThanOrEqual(carded, 8, "a one-word query's results are its card's, bar a page whose sections lift it")

        // Without them, each page's shard gives the same results page.
        for file in cardFiles { try FileManager.default.removeItem(at: index.appendingPathComponent(file)) }
        XCTAssertEqual(SearchResultsMarkup.results(try Chromium.dumpDOM(page)), results)
    }

    /// A pasted log line ranks first the pages with all its words; its words' cards in the log
    /// file (`!word`) go to the pages on its most lines, and search.js reads them there: ten
    /// results in one card file, where each word's best pages alone are spread over many.
    func testAPastedLogLinesResultsComeFromTheLogFilesCards() throws {
        let site = try SampleSite.shipped()
        defer { site.remove() }
        var notes: [String: String] = [:]
        let lines = ["worker reload failed reading socket", "worker reload reading socket", "worker failed reading socket"]
        for number in 0..<1000 {
            notes["content/articles/notes/note-\(number).md"] = """
                ---
                title: Field note \(number)
                summary: Note \(number) of a set about one plant.
                audience: operator
                \(number < 60 ? "log_patterns:\n  - \"\(lines[number % 3])\"" : "")
                ---

                The quillwort of note \(number) grows by the water.
                """
        }
        try site.write(notes)
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: site.url).status, 0)
        let index = site.url.appendingPathComponent("public/search/en")
        let cardFiles = try FileManager.default.contentsOfDirectory(atPath: index.path).filter { $0.hasPrefix("c") && $0.hasSuffix(".js") }
        XCTAssertTrue(try cardFiles.contains { try String(contentsOf: index.appendingPathComponent($0), encoding: .utf8).contains("\"!worker\":[") })

        let page = site.url.appendingPathComponent("public/search/index.html").absoluteString + "?q=worker%20reload%20failed%20reading%20socket"
        let results = SearchResultsMarkup.results(try Chromium.dumpDOM(page))
        XCTAssertEqual(results.count, 10, "ten results")
        let everyWord = (0..<20).map { "note-\(3 * $0)/" }
        XCTAssertTrue(results.allSatisfy { result in everyWord.contains { result.contains($0) } }, "the notes with every word first: \(results)")
        XCTAssertEqual(try Self.resultsFromCards(cardFiles, in: index, page: page), 10, "the line's ten results are its words' cards")
    }

    /// How many of `page`'s results came from a card: cards marked in their files (` note `
    /// becomes ` carded note `) show marked on the page.
    private static func resultsFromCards(_ cardFiles: [String], in index: URL, page: String) throws -> Int {
        for file in cardFiles {
            let url = index.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            try text.replacingOccurrences(of: " note ", with: " carded note ").write(to: url, atomically: true, encoding: .utf8)
        }
        return SearchResultsMarkup.results(try Chromium.dumpDOM(page)).filter { $0.contains("carded note") }.count
    }
}
