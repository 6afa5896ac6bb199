import DetourTestSupport
import Foundation
import XCTest

@testable import DetourContent

/// detour's GitHub Markdown against Debian's `cmark-gfm` with the table, strikethrough, autolink
/// and task-list extensions: the same HTML, up to white space between tags and attribute order,
/// for hand-written cases and for generated tables (`MARKDOWN_N`, `MARKDOWN_SEED`).
final class CmarkGFMDifferentialTests: XCTestCase {
    static let handWritten = [
        "| a | b |\n|:-|:-:|\n| c | `x\\|y` |\n| e\n",
        "para\n| h |\n| - |\n| r |\n",
        "| a | b |\n| - |\n| c | d |\n",
        "a | b\n--|--\nc | d\n",
        "| a |\n| --- |\n| b |\n> quote\n",
        "| a |\n| --- |\n| b |\nbar\n\nbar\n",
        "| a | b |\n| --- | --- |\n| `a|b` | c |\n",
        "| a |\n| -: |\n| b |\n---\n",
        "| a |\n| -: |\n| b |\n===\n",
        "- | a |\n  | - |\n  | b |\n- next\n",
        "> | a | b |\n> |---|---|\n> | 1 | 2 |\n",
        "| a |\n|---|\n| b |\n2. two\n",
        "| x |\n|:--|\n",
        "~~struck~~ and ~one~ but ~~~three~~~ and a~~b~~c and ~~mismatched~\n",
        "~~*both*~~ and *~~inner~~* and ~~open\n",
        "Visit www.example.com, https://example.com/path?q=1. and (https://example.com/a_(b)) or ftp://files.example.com.\n",
        "Mail ops@example.com or first.last+tag@mail.example.co.uk. Not me@host or a@b.c_d.\n",
        "www.commonmark.org/a.b. and www.x_y.example.com and https://localhost:8080/x and http://a.b/c;\n",
        "[www.example.com](https://other.example) and `www.example.com` and <https://example.com>\n",
        "- [ ] todo\n- [x] done\n- [ ]not a task\n- plain\n",
        "1. [x] first\n2. [ ] second\n\n   with a paragraph\n",
        "- [ ] loose\n\n- [x] list\n",
        "# Heading with ~~strike~~ and www.example.com\n\nText\n",
        "| Status | Meaning |\n| ------ | ------- |\n| 502 | **Bad** gateway: see [502](/codes/502/) |\n| 504 | *Timeout* ~~old~~ |\n",
        "Compare v1.8...v1.9 at https://example.com/compare/v1.8...v1.9 -- and say \"done\" (it's https://x.example/'q' or www.example.com/--x--).\n",
        "[https://example.com/a] and (see https://example.com/b) and \"https://example.com/c\".\n",
    ]

    /// Footnotes as GitHub writes them: references numbered by first use, repeated references,
    /// definitions continued by indented and lazy lines, in tables and quotes, unknown labels.
    static let footnotes = [
        "a[^1] and b[^x] and [^1] again and [^none].\n\n[^1]: note *one*\n[^x]: two\n\n    indented para\n\nafter\n",
        "para[^1]\n[^1]: note\n",
        "para[^1]\n\n[^1]: note\nlazy\n- list\n",
        "x[^Ab] y[^a&\"b]\n\n[^aB]: one\n[^A&\"B]: two\n",
        "x[^1]\n\n[^1]: first\n\n        code\n\n    - item\n",
        "x[^1] [^2]\n\n[^1]: a\n[^1]: dup\n[^2]: ```\n",
        "x[^1][^2] and [^2](u)\n\n[^1]: see[^2]\n\n[^2]: two\n",
        "| a |\n| - |\n| x[^1] |\n\n[^1]: cell\n",
        "x [^1]\n\n- item\n  [^1]: in item\n",
        "Unused[^2] only.\n\n[^1]: never referenced\n[^2]: used [link](https://example.com) www.example.com\n",
        "```\n[^1]: inside a fence\n```\n\nx[^1]\n",
        "# Title[^t]\n\nText.\n\n[^t]: In a heading.\n",
        "> q[^a]\n>\n> [^a]: in quote\n> more\n\nafter\n",
        "> > deep[^d]\n> >\n> > [^d]: two levels\n",
        "*Emphasis*[^1] and **strong**[^1]\n\n[^1]: After an inline.\n",
    ]

    /// GFM's tagfilter where raw HTML is allowed.
    static let rawHTML = [
        "<script>alert(1)</script>\n\nText <style>p{}</style> and <b>bold</b> and <IFRAME src=x> and </title> and <xmp/> and <scripts>\n",
        "<div>\n<textarea>\n</div>\n\n<plaintext\n",
    ]

    func testHandWrittenCasesRenderAsCmarkGFMDoes() throws {
        let disagreements = try compare(Self.handWritten)
        XCTAssertTrue(disagreements.isEmpty, disagreements.joined(separator: "\n\n"))
    }

    func testFootnotesRenderAsCmarkGFMDoes() throws {
        let disagreements = try compare(Self.footnotes)
        XCTAssertTrue(disagreements.isEmpty, disagreements.joined(separator: "\n\n"))
    }

    func testRawHTMLIsTagFilteredAsCmarkGFMDoes() throws {
        let disagreements = try compare(Self.rawHTML, options: MarkdownOptions(rawHTML: true))
        XCTAssertTrue(disagreements.isEmpty, disagreements.joined(separator: "\n\n"))
    }

    func testSmartPunctuationWhenChosenIsCmarkGFMs() throws {
        let disagreements = try compare(Self.handWritten + Self.footnotes, options: MarkdownOptions(smartPunctuation: true))
        XCTAssertTrue(disagreements.isEmpty, disagreements.joined(separator: "\n\n"))
    }

    func testGeneratedTablesRenderAsCmarkGFMDoes() throws {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["MARKDOWN_N"].flatMap(Int.init) ?? 300
        let seed = environment["MARKDOWN_SEED"].flatMap(UInt64.init) ?? 2028
        var generator = GitHubTableGenerator(seed: seed)
        let documents = (0..<count).map { _ in generator.document() }
        let disagreements = try compare(documents)
        XCTAssertTrue(disagreements.isEmpty, "\(disagreements.count) of \(count) (seed \(seed)):\n\n" + disagreements.prefix(10).joined(separator: "\n\n"))
    }

    private func compare(_ documents: [String], options: MarkdownOptions = MarkdownOptions()) throws -> [String] {
        try CmarkGFMOracle().disagreements(documents.map { (name: "input", markdown: $0) }, options: options)
    }
}
