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
    ]

    func testHandWrittenCasesRenderAsCmarkGFMDoes() throws {
        let disagreements = try compare(Self.handWritten)
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

    private func compare(_ documents: [String]) throws -> [String] {
        let cmarkGFM = try RequiredTool.find("cmark-gfm")
        var disagreements: [String] = []
        for markdown in documents {
            let expected = try ProcessRunner.run(
                cmarkGFM, ["--smart", "-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tasklist"], input: Data(markdown.utf8))
            XCTAssertEqual(expected.status, 0, expected.stderr)
            let actual = MarkdownDocument(markdown).plainHTML()
            if HTMLComparison.normalize(actual) != HTMLComparison.normalize(expected.stdout) {
                disagreements.append("input:\n\(markdown)\ncmark-gfm:\n\(expected.stdout)\ndetour:\n\(actual)")
            }
        }
        return disagreements
    }
}
