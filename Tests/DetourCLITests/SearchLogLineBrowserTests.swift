import DetourTestSupport
import Foundation
import XCTest

/// On a site whose log lines name thousands of hosts, the log file (`l.js`) leaves the hosts to
/// the term files and keeps the lines' plain words, and the entry knows which of them a line has
/// side by side: a short pasted line, three words each in a term file of its own, is read from
/// the log file alone, where the same words in another order are a question, read from the
/// term files.
final class SearchLogLineBrowserTests: XCTestCase {
    func testAShortPastedLineIsReadFromTheLogFileAlone() throws {
        let site = try SampleSite.shipped()
        defer { site.remove() }
        let candidates = ["Quorum vanished midway", "Lantern kept drifting", "Walrus jumped sideways", "Harbor lights flickered"]
        var notes: [String: String] = [:]
        for number in 0..<400 {
            let hosts = (0..<6).map { "\"upstream timed out, server: shop-\(number)x\($0)\"" }
            let own = number < candidates.count ? ["\"\(candidates[number])\""] : []
            notes["content/articles/notes/note-\(number).md"] = """
                ---
                title: Field note \(number)
                summary: Note \(number) of a set about one shop.
                audience: operator
                log_patterns: [\((own + hosts).joined(separator: ", "))]
                ---

                The shop of note \(number) keeps its own log.
                """
        }
        try site.write(notes)
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: site.url).status, 0)
        let index = site.url.appendingPathComponent("public/search/en")
        let logFile = try String(contentsOf: index.appendingPathComponent("l.js"), encoding: .utf8)
        XCTAssertFalse(logFile.contains("\"shop-123x4\":["), "a host of one line is left to its term file")
        XCTAssertTrue(logFile.contains("\"quorum\":["), "a plain word of one line stays: \(logFile.prefix(300))")

        // A line whose three words are in three term files: the one the route is for.
        let termFiles = try FileManager.default.contentsOfDirectory(atPath: index.path).filter { $0.hasPrefix("t") && $0.hasSuffix(".js") }
        let texts = try termFiles.map { try String(contentsOf: index.appendingPathComponent($0), encoding: .utf8) }
        let fileOf = { (word: String) in texts.firstIndex { $0.contains("\"\(word)\":") } }
        let spread = candidates.enumerated().first { _, line in
            Set(line.lowercased().split(separator: " ").map { fileOf(String($0)) }).count == 3
        }
        let (number, line) = try XCTUnwrap(spread, "a line of three words in three term files")
        for file in termFiles { try FileManager.default.removeItem(at: index.appendingPathComponent(file)) }

        let search = site.url.appendingPathComponent("public/search/index.html").absoluteString + "?lang=en&q="
        let pasted = SearchResultsMarkup.results(try Chromium.dumpDOM(search + line.replacingOccurrences(of: " ", with: "%20")))
        XCTAssertTrue(pasted.first?.contains("/public/articles/note-\(number)/") == true, "the line's page first, from the log file: \(pasted.prefix(2))")
        let words = line.split(separator: " ")
        let question = [words[2], words[0], words[1]].joined(separator: "%20")
        XCTAssertEqual(
            SearchResultsMarkup.results(try Chromium.dumpDOM(search + question)), [],
            "words not side by side are looked up in their term files, gone here (the other languages, which hold the notes too, not asked)")
    }
}
