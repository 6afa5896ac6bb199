import XCTest

@testable import DetourContent

final class MarkdownDocumentTests: XCTestCase {
    /// Where a site chooses it, a command-line flag still keeps its two hyphens.
    func testSmartPunctuationIsOffAsOnGitHubUnlessChosen() {
        let markdown = "\"Quoted\" -- it's fine... Run `--dry-run` or --dry-run."
        XCTAssertEqual(MarkdownDocument(markdown).render().html, "<p>&quot;Quoted&quot; -- it's fine... Run <code>--dry-run</code> or --dry-run.</p>\n")
        let smart = MarkdownDocument(markdown, options: MarkdownOptions(smartPunctuation: true)).render().html
        XCTAssertEqual(smart, "<p>\u{201C}Quoted\u{201D} \u{2013} it\u{2019}s fine\u{2026} Run <code>--dry-run</code> or --dry-run.</p>\n")
    }

    func testRawHTMLIsOmittedUnlessAllowedAndThenTagFiltered() {
        let markdown = "<script>alert(1)</script>\n\nText <b onclick=\"x\">bold</b>\n"
        let safe = MarkdownDocument(markdown).render().html
        XCTAssertFalse(safe.contains("<script"))
        XCTAssertFalse(safe.contains("onclick"))
        XCTAssertTrue(safe.contains("raw HTML omitted"))
        let unsafe = MarkdownDocument(markdown, options: MarkdownOptions(rawHTML: true)).render().html
        XCTAssertTrue(unsafe.contains("&lt;script>alert(1)&lt;/script>"), unsafe)
        XCTAssertTrue(unsafe.contains("<b onclick=\"x\">bold</b>"), unsafe)
    }

    func testTextIsEscaped() {
        XCTAssertEqual(MarkdownDocument("a < b & \"c\"").render().html, "<p>a &lt; b &amp; &quot;c&quot;</p>\n")
    }

    func testHeadingsGetStableUniqueIDs() {
        let rendered = MarkdownDocument("# Check the *port*\n\n## Check the port\n\n### `proxy_pass` (nginx)\n").render()
        XCTAssertEqual(rendered.headings.map(\.id), ["check-the-port", "check-the-port-1", "proxy_pass-nginx"])
        XCTAssertEqual(rendered.headings.map(\.level), [1, 2, 3])
        XCTAssertEqual(rendered.headings[0].text, "Check the port")
        XCTAssertTrue(rendered.html.contains("<h1 id=\"check-the-port\">Check the <em>port</em></h1>"))
        XCTAssertTrue(rendered.html.contains("<h3 id=\"proxy_pass-nginx\"><code>proxy_pass</code> (nginx)</h3>"))
    }

    func testNestedHeadingsGetIDsToo() {
        let rendered = MarkdownDocument("## Top\n\n> ## Quoted\n\n- item\n\n  ### In a list\n").render()
        XCTAssertEqual(rendered.headings.map(\.id), ["top", "quoted", "in-a-list"])
        XCTAssertTrue(rendered.html.contains("<h2 id=\"quoted\">Quoted</h2>"), rendered.html)
        XCTAssertTrue(rendered.html.contains("<h3 id=\"in-a-list\">In a list</h3>"), rendered.html)
    }

    func testSectionsHoldThePlainTextBetweenHeadings() {
        let markdown =
            "Intro *text*\nwraps.\n\n## Check `proxy_pass`\n\n- one\n- two\n\n#### Deeper\n\n```\nconnect() failed\n```\n\n### Next\n\nLast [link](x.md).\n"
        let sections = MarkdownDocument(markdown).render().sections
        XCTAssertEqual(sections.map(\.heading?.id), [nil, "check-proxy_pass", "next"])
        XCTAssertEqual(sections.map(\.text), ["Intro text wraps.", "one two Deeper connect() failed", "Last link."])
        XCTAssertEqual(MarkdownDocument("## Only\n\nText").render().sections.map(\.heading?.text), ["Only"])
    }

    func testLinksPassThroughTheResolverWithTheirLine() {
        var seen: [MarkdownDocument.Link] = []
        let html = MarkdownDocument("Intro\n\nSee [other](other.md) and ![logo](a.png).\n").render { link in
            seen.append(link)
            return link.destination == "other.md" ? "../other/" : link.destination
        }.html
        XCTAssertEqual(seen, [.init(destination: "other.md", line: 3), .init(destination: "a.png", line: 3)])
        XCTAssertTrue(html.contains("<a href=\"../other/\">other</a>"))
    }
}
