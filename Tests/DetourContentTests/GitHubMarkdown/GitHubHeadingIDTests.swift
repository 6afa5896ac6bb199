import DetourLayout
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourContent

/// Heading ids as GitHub gives them, judged by `github-slugger` (the Python port, from PyPI, of
/// the JavaScript slugger that mirrors GitHub; `make test-deps` installs it): generated headings of
/// ASCII punctuation, letters of many scripts, marks, symbols and emoji, with repeats, read in
/// order as one document, so repeats are numbered as on GitHub.
final class GitHubHeadingIDTests: XCTestCase {
    func testIDsAreGitHubSluggersOnGeneratedHeadings() throws {
        let slugger = Repository.root.appendingPathComponent(".build-python/github-slugger")
        guard FileManager.default.fileExists(atPath: slugger.appendingPathComponent("github_slugger").path) else {
            let message = "github-slugger is not in .build-python (make test-deps installs it)"
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail(message + " (required under CI=true)") }
            throw XCTSkip(message)
        }
        let seed = ProcessInfo.processInfo.environment["SLUG_SEED"].flatMap(UInt64.init) ?? 61
        var random = SplitMix64(state: seed)
        var earlier: [String] = []
        let headings = (0..<3000).map { _ in Self.heading(&random, earlier: &earlier) }
        let script = """
            import json, sys
            from github_slugger import GithubSlugger
            slugger = GithubSlugger()
            print(json.dumps([slugger.slug(h) for h in json.load(sys.stdin)]))
            """
        let python = try RequiredTool.find("python3")
        let result = try ProcessRunner.run(
            python, ["-c", script], environment: ["PYTHONPATH": slugger.path, "PATH": "/usr/bin:/bin"], input: try JSONEncoder().encode(headings))
        XCTAssertEqual(result.status, 0, result.stderr)
        let expected = try JSONDecoder().decode([String].self, from: Data(result.stdout.utf8))
        var used: [String: Int] = [:]
        var misses: [String] = []
        for (heading, githubID) in zip(headings, expected) {
            let id = MarkdownDocument.uniqueID(for: heading, used: &used)
            if id != githubID { misses.append("\(heading.debugDescription): \(id.debugDescription) where github-slugger gives \(githubID.debugDescription)") }
        }
        XCTAssertEqual(expected.count, headings.count)
        XCTAssertEqual(misses, [], "\(misses.count) of \(headings.count) (seed \(seed))")
    }

    /// Pieces headings are made of: words of several scripts, ASCII punctuation (each kind GitHub
    /// keeps or drops), symbols, marks, emoji; a heading of a few of them, often an earlier one
    /// again. Every one holds an ASCII letter, as a heading with no letter or digit is `section`
    /// here where GitHub leaves its id empty.
    private static let pieces = [
        "nginx", "Proxy", "UPSTREAM", "502", "timed", "out", "proxy_pass", "fast_cgi", "Über", "café", "Ελληνικά", "кириллица", "日本語",
        "한국어", "עברית", "العربية", "हिन्दी", "a\u{301}", "ǅ", "Ⅻ", "½", "x²", "-", "--", "_", "__", " ", "  ", "\t", ".", ",", ":", ";", "!", "?",
        "'", "\"", "`", "(", ")", "[", "]", "{", "}", "<", ">", "/", "\\", "|", "@", "#", "$", "%", "^", "&", "*", "+", "=", "~", "©", "™", "→",
        "•", "…", "–", "—", "«", "»", "¿", "§", "°", "€", "😄", "🚀", "👍🏽", "‿", "\u{00A0}", "\u{2003}", "\u{200B}",
    ]

    private static func heading(_ random: inout SplitMix64, earlier: inout [String]) -> String {
        if !earlier.isEmpty, random.next() % 5 == 0 { return earlier[Int(random.next() % UInt64(earlier.count))] }
        var text = ["echo", "Check the port", "Step", "a"][Int(random.next() % 4)]
        for _ in 0..<(1 + random.next() % 6) { text += pieces[Int(random.next() % UInt64(pieces.count))] }
        earlier.append(text)
        return text
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
        XCTAssertEqual(MarkdownDocument(markdown, options: MarkdownOptions(rawHTML: true)).anchors, ["top", "legacy-name", "inline", "old"])
        XCTAssertEqual(MarkdownDocument(markdown).anchors, ["top"])
    }
}
