import DetourTestSupport
import Foundation
import XCTest

/// A start with more terms than a term file holds (two thousand host names under `sh`) is cut
/// by longer starts (`SearchIndexSplit`), which the entry lists: search.js keys a word as the
/// builder did, so a name under a cut start finds its page, typed whole or begun.
final class SearchSplitBrowserTests: XCTestCase {
    func testANameUnderAStartCutLongerFindsItsPage() throws {
        let site = try SampleSite.shipped()
        defer { site.remove() }
        var notes: [String: String] = [:]
        for number in 0..<400 {
            let hosts = (0..<6).map { "shop-\(number)x\($0)" }
            notes["content/articles/notes/note-\(number).md"] = """
                ---
                title: Field note \(number)
                summary: Note \(number) of a set about one shop.
                audience: operator
                ---

                The upstream timed out, server: \(hosts.joined(separator: ", server: ")).
                """
        }
        try site.write(notes)
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: site.url).status, 0)
        let entry = try String(contentsOf: site.url.appendingPathComponent("public/search/en/index.js"), encoding: .utf8)
        XCTAssertTrue(entry.contains("\"split\":[\"sh\",\"sho\",\"shop\",\"shop-\"]"), "the entry lists the starts cut: \(entry.prefix(300))")

        // Only the term file that holds the name is left: search must key it as the builder did
        // (the file of `sh`, or its pieces' files, would find nothing).
        let index = site.url.appendingPathComponent("public/search/en")
        let termFiles = try FileManager.default.contentsOfDirectory(atPath: index.path).filter { $0.hasPrefix("t") && $0.hasSuffix(".js") }
        let holder = try XCTUnwrap(
            try termFiles.first { try String(contentsOf: index.appendingPathComponent($0), encoding: .utf8).contains("\"shop-123x4\":[") })
        for file in termFiles where file != holder { try FileManager.default.removeItem(at: index.appendingPathComponent(file)) }

        let search = site.url.appendingPathComponent("public/search/index.html").absoluteString
        let whole = SearchResultsMarkup.results(try Chromium.dumpDOM(search + "?q=shop-123x4"))
        XCTAssertTrue(whole.first?.contains("/public/articles/note-123/") == true, "the name's page first: \(whole.prefix(2))")
        let begun = SearchResultsMarkup.results(try Chromium.dumpDOM(search + "?q=shop-123x"))
        XCTAssertTrue(begun.prefix(3).contains { $0.contains("/public/articles/note-123/") }, "a name begun finds it too: \(begun.prefix(3))")
    }
}
