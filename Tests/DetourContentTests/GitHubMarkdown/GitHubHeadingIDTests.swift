import DetourLayout
import Foundation
import XCTest

@testable import DetourContent

/// Heading ids as GitHub gives them, judged on headings GitHub itself rendered (github-slugger's
/// fixtures: `Slugger/SOURCE.md`), one document in order, so repeats are numbered as on GitHub.
final class GitHubHeadingIDTests: XCTestCase {
    private struct Fixture: Decodable {
        let name: String
        let input: String
        let expected: String
    }

    func testIDsAreGitHubsOnHeadingsGitHubRendered() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Slugger/fixtures.json")
        let fixtures = try JSONDecoder().decode([Fixture].self, from: Data(contentsOf: url))
        XCTAssertGreaterThan(fixtures.count, 70)
        var used: [String: Int] = [:]
        var misses: [String] = []
        for fixture in fixtures {
            // GitHub rendered them under Unicode 13: a character assigned since was unassigned to
            // it, and dropped as such; it is a letter (kept) to Swift's newer tables.
            let input = String(String.UnicodeScalarView(fixture.input.unicodeScalars.filter { ($0.properties.age.map { $0 <= (13, 0) }) ?? true }))
            let id = MarkdownDocument.uniqueID(for: input, used: &used)
            if id != fixture.expected { misses.append("\(fixture.name): \(id.debugDescription) where GitHub gives \(fixture.expected.debugDescription)") }
        }
        XCTAssertEqual(misses, [], "\(misses.count) of \(fixtures.count)")
    }

    func testTheDocumentsHeadingsCarryThoseIDs() {
        let document = MarkdownDocument("# echo\n\n## echo\n\n## echo 1\n\n### `proxy_pass` - the directive\n\n## Caddy's forward_auth\n")
        XCTAssertEqual(document.headings.map(\.id), ["echo", "echo-1", "echo-1-1", "proxy_pass---the-directive", "caddys-forward_auth"])
    }

    /// With raw HTML on, an element's `id` and an `<a>`'s `name` are link targets too, as on
    /// GitHub (`<a name="old-title"></a>` kept above a renamed heading); with it off they are not
    /// in the page, so not targets.
    func testRawHTMLAnchorsAreLinkTargetsWhereRawHTMLIsOn() {
        let markdown = "# Top\n\n<a id=\"legacy-name\"></a>\n\nText <span id='inline'>x</span>, <a name=\"old\">o</a>, <input name=\"field\">.\n"
        XCTAssertEqual(MarkdownDocument(markdown, allowRawHTML: true).anchors, ["top", "legacy-name", "inline", "old"])
        XCTAssertEqual(MarkdownDocument(markdown).anchors, ["top"])
    }
}
