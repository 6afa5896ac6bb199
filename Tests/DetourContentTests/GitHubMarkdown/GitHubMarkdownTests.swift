import DetourDiagnostics
import XCTest

@testable import DetourContent

/// What cmark-gfm does not know and detour adds: GitHub's alerts, `[X]` tasks, heading anchors,
/// and tables checked like the rest of an article.
final class GitHubMarkdownTests: XCTestCase {
    func testAlertsBecomeTitledBoxes() {
        let html = MarkdownDocument("> [!WARNING]\n> Restarting drops *every* connection.\n\n> [!note]\n> Lower case works too.\n").html()
        XCTAssertTrue(
            html.contains(
                "<div class=\"markdown-alert markdown-alert-warning\">\n<p class=\"markdown-alert-title\">Warning</p>\n<p>Restarting drops <em>every</em> connection.</p>\n</div>"
            ), html)
        XCTAssertTrue(html.contains("markdown-alert-note"), html)
        XCTAssertFalse(html.contains("[!"), html)
    }

    func testAlertMarkerMustStandAlone() {
        let html = MarkdownDocument("> [!NOTE] inline text\n> more\n\n> [!UNKNOWN]\n> text\n").html()
        XCTAssertFalse(html.contains("markdown-alert"), html)
        XCTAssertEqual(html.components(separatedBy: "<blockquote>").count, 3, html)
    }

    func testAlertTitlesCanBeTranslated() {
        let html = MarkdownDocument("> [!TIP]\n> Kurz.\n").html(alertTitle: { $0 == .tip ? "Tipp" : "?" })
        XCTAssertTrue(html.contains("<p class=\"markdown-alert-title\">Tipp</p>"), html)
    }

    func testUpperCaseXChecksATaskAsOnGitHub() {
        let html = MarkdownDocument("- [X] done\n- [ ] open\n").html()
        XCTAssertTrue(html.contains("<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> done</li>"), html)
        XCTAssertTrue(html.contains("<li><input type=\"checkbox\" disabled=\"\" /> open</li>"), html)
    }

    func testHeadingsGetAnchorsNamedByTheirText() {
        let html = MarkdownDocument("## Check the *port*\n").html(headingAnchors: true)
        XCTAssertEqual(
            html, "<h2 id=\"check-the-port\">Check the <em>port</em><a class=\"anchor\" href=\"#check-the-port\" aria-label=\"Check the port\">#</a></h2>\n")
    }

    func testABrokenLinkInATableCellIsReportedAtItsLine() {
        let markdown = "Intro\n\n| Code | See |\n| --- | --- |\n| 502 | [gone](missing.md) |\n"
        let renderer = MarkdownRenderer(resolver: LinkResolver(articles: [], statuses: []), markdown: MarkdownOptions())
        let result = renderer.read(markdown, fromPath: "articles/a.md", start: SourceLocation(path: "content/articles/a.md", line: 4))
        XCTAssertEqual(result.diagnostics.map(\.location.line), [8])
        XCTAssertEqual(result.diagnostics.map(\.location.column), [16])
        let html = renderer.html(result.document, fromPath: "articles/a.md", root: "../../")
        XCTAssertTrue(html.contains("<td><a href=\"missing.md\">gone</a></td>"), html)
    }

    /// A file saved with Windows line endings: its broken link is placed as in the same file
    /// with Unix ones, on its own line and column.
    func testABrokenLinkInACRLFFileIsReportedAtItsLine() {
        let renderer = MarkdownRenderer(resolver: LinkResolver(articles: [], statuses: []), markdown: MarkdownOptions())
        let start = SourceLocation(path: "content/articles/a.md", line: 4)
        let unix = "Intro\n\nSee   [gone](missing.md) here.\n"
        let places = [unix, unix.replacingOccurrences(of: "\n", with: "\r\n")].map { markdown in
            renderer.read(markdown, fromPath: "articles/a.md", start: start).diagnostics.map { [$0.location.line, $0.location.column] }
        }
        XCTAssertEqual(places, [[[6, 14]], [[6, 14]]])
    }

    func testTableCellsLinkUnderTheRootAndAreSearchable() {
        let markdown = "| Code | See |\n| --- | --- |\n| 502 | [the article](/articles/x/) |\n"
        let document = MarkdownDocument(markdown)
        let html = document.html(resolveLink: { $0.destination == "/articles/x/" ? "../../articles/x/" : $0.destination })
        XCTAssertTrue(html.contains("<a href=\"../../articles/x/\">the article</a>"), html)
        XCTAssertEqual(document.sections.map(\.text), ["Code See 502 the article"])
        XCTAssertEqual(document.plainText(), "Code | See\n502 | the article (/articles/x/)")
    }

    func testAReferenceLinkResolvesInsideACellAndBeforeATable() {
        let html = MarkdownDocument("See [docs]\n| a |\n| - |\n| [docs] |\n\n[docs]: https://example.com/docs\n").html()
        XCTAssertEqual(html.components(separatedBy: "<a href=\"https://example.com/docs\">docs</a>").count, 3, html)
    }
}
