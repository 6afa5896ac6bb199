import DetourDiagnostics
import DetourSite
import DetourTestSupport
import Foundation
import XCTest

/// After an article's text changed, `detour build` rewrites only the pages and index files it
/// shows in, and the output is what a clean build writes, byte for byte: checked edit after
/// edit on the shipped knowledge base, each against a clean build of the same content.
final class ArticleRebuildTests: XCTestCase {
    private var project: TemporaryFolder!
    private var random = SplitMix64(state: 20_261_126)
    private var edits = 0

    override func setUpWithError() throws {
        project = try TemporaryFolder()
        try FileManager.default.copyItem(at: Repository.content, to: project.url.appendingPathComponent("content"))
        try FileManager.default.copyItem(at: Repository.templates, to: project.url.appendingPathComponent("templates"))
        try project.age(by: 120)
    }

    override func tearDown() {
        project.remove()
    }

    func testEditedTextGivesTheCleanBuildsOutputEditAfterEdit() throws {
        XCTAssertTrue(build().wroteOutput)
        var rebuilt = 0
        for round in 0..<12 {
            let edited = try editSomeText()
            let report = build()
            XCTAssertFalse(report.diagnostics.hasErrors, "round \(round), \(edited): \(report.diagnostics)")
            if !report.wroteOutput {
                rebuilt += 1
                XCTAssertTrue(report.upToDate || report.rewritten.contains { $0.hasPrefix("search/en/d") }, "the page's doc shard: \(report.rewritten)")
            }
            try assertEqualsCleanBuild(report, "round \(round), \(edited)")
        }
        XCTAssertGreaterThanOrEqual(rebuilt, 11, "edits rewrite only their pages, or nothing when what shows is the same")
    }

    /// Edits saved and built at once, as editors, scripts and make do: each file is written
    /// within the racy window of the build after it, and of the first build too. Each build
    /// still rewrites only the edited article's pages, and the output is a clean build's.
    func testEditsBuiltAtOnceAreRebuiltAsText() throws {
        try project.write(["content/articles/upstream/upstream-dns.md": try project.read("content/articles/upstream/upstream-dns.md") + "\nJust now.\n"])
        XCTAssertTrue(build().wroteOutput)
        for round in 0..<4 {
            let edited = try editSomeText(aged: false)
            let report = build()
            XCTAssertFalse(report.wroteOutput, "round \(round), \(edited): a quick rebuild, not a full one")
            try assertEqualsCleanBuild(report, "round \(round), \(edited), at once")
        }
        XCTAssertTrue(build().upToDate)
    }

    /// A heading added is the article's own: its page's table of contents and its index
    /// entries change, in place.
    func testANewHeadingIsRebuiltInPlace() throws {
        XCTAssertTrue(build().wroteOutput)
        try edit("content/articles/upstream/upstream-connect-timeout.md") { $0 + "\n## An added heading\n\nWith its text.\n" }
        let heading = build()
        XCTAssertFalse(heading.wroteOutput, "\(heading.diagnostics)")
        XCTAssertTrue(heading.rewritten.contains("articles/upstream-connect-timeout/index.html"), "\(heading.rewritten)")
        XCTAssertTrue(try project.read("public/articles/upstream-connect-timeout/index.html").contains("<a href=\"#an-added-heading\">An added heading</a>"))
        try assertEqualsCleanBuild(heading, "a heading")
    }

    /// A heading another article links to, renamed, breaks that article's link: the build
    /// finds it as a clean build does, though the other article did not change.
    func testRenamingAHeadingOthersLinkToFindsTheirBrokenLinks() throws {
        XCTAssertTrue(build().wroteOutput)
        let target = "content/articles/upstream/upstream-connect-timeout.md"
        try edit(target) { $0 + "\n## Linked from elsewhere\n\nWith its text.\n" }
        XCTAssertFalse(build().wroteOutput)
        try edit("content/articles/upstream/upstream-dns.md") { $0 + "\nSee [that part](/articles/upstream-connect-timeout/#linked-from-elsewhere).\n" }
        let linked = build()
        XCTAssertFalse(linked.wroteOutput || linked.diagnostics.hasErrors, "\(linked.diagnostics)")
        try edit(target) { $0.replacingOccurrences(of: "## Linked from elsewhere", with: "## Renamed since") }
        let renamed = build()
        let text = DiagnosticFormat.text.render(renamed.diagnostics, toolVersion: "test")
        XCTAssertTrue(text.contains("upstream-dns.md") && text.contains("#linked-from-elsewhere") && text.contains("[markdown.broken-link]"), text)
        let clean = SiteBuilder.build(options(output: "clean", cache: .off))
        XCTAssertEqual(renamed.diagnostics.sortedForOutput(), clean.diagnostics.sortedForOutput())
    }

    /// A link to a file the site does not hold builds with a warning and stays as written; once
    /// that article is added, the page that links to it is rebuilt with the link made the site's.
    func testALinkToAnArticleNotYetWrittenIsMadeWhenItIsAdded() throws {
        XCTAssertTrue(build().wroteOutput)
        let linking = "content/articles/upstream/upstream-dns.md"
        try edit(linking) { $0 + "\nSee [how to help](CONTRIBUTING.md).\n" }
        let pasted = build()
        XCTAssertEqual(pasted.diagnostics.map(\.rule), ["markdown.broken-link"])
        XCTAssertTrue(try project.read("public/articles/upstream-dns/index.html").contains("<a href=\"CONTRIBUTING.md\">how to help</a>"))
        try assertEqualsCleanBuild(pasted, "a link to no article")
        try project.write(["content/articles/upstream/CONTRIBUTING.md": "---\ntitle: Contributing\nsummary: How to help.\n---\n\nWrite to us.\n"])
        let added = build()
        XCTAssertTrue(added.diagnostics.isEmpty, "\(added.diagnostics)")
        XCTAssertFalse(try project.read("public/articles/upstream-dns/index.html").contains("href=\"CONTRIBUTING.md\""))
        try assertEqualsCleanBuild(added, "the article added")
    }

    /// A theme that shows the table of contents only beside what the whole site knows (here,
    /// the pager) gets no guessed patch: the page is built in full, as a clean build makes it.
    func testATableOfContentsShownBesideSiteFieldsBuildsInFull() throws {
        try edit("templates/article.mustache") { text in
            text.replacingOccurrences(of: "{{^empty(article.headings)}}", with: "{{#article.pager}}{{^empty(article.headings)}}")
                .replacingOccurrences(of: "{{/empty(article.headings)}}", with: "{{/empty(article.headings)}}{{/article.pager}}")
        }
        XCTAssertTrue(build().wroteOutput)
        try edit("content/articles/upstream/upstream-connect-timeout.md") { $0 + "\n## An added heading\n\nWith its text.\n" }
        let heading = build()
        XCTAssertTrue(heading.wroteOutput)
        XCTAssertTrue(try project.read("public/articles/upstream-connect-timeout/index.html").contains("<a href=\"#an-added-heading\">An added heading</a>"))
        try assertEqualsCleanBuild(heading, "a heading")
    }

    /// A change to what lists or other pages show of an article is more than its pages: the
    /// whole site is built again.
    func testAFrontMatterChangeBuildsInFull() throws {
        XCTAssertTrue(build().wroteOutput)
        try edit("content/articles/upstream/upstream-connect-timeout.md") { text in
            let lines = text.components(separatedBy: "\n").map { $0.hasPrefix("title: ") ? "title: A title of its own" : $0 }
            return lines.joined(separator: "\n")
        }
        let title = build()
        XCTAssertTrue(title.wroteOutput && title.rewritten.isEmpty)
        try assertEqualsCleanBuild(title, "a title")
    }

    /// A broken link in the new text fails the build as a full build would, the output and
    /// what it was made from left as they were; mended, the article's pages are rewritten.
    func testABrokenLinkInTheNewTextFailsAndLeavesTheOutput() throws {
        XCTAssertTrue(build().wroteOutput)
        let before = project.snapshot("public")
        let path = "content/articles/upstream/upstream-connect-timeout.md"
        let good = try project.read(path)
        try edit(path) { $0 + "\nSee [the missing one](/articles/no-such-article/).\n" }
        let failed = build()
        let text = DiagnosticFormat.text.render(failed.diagnostics, toolVersion: "test")
        XCTAssertTrue(text.contains("[markdown.broken-link]") && text.contains("no-such-article"), text)
        XCTAssertEqual(project.snapshot("public"), before)
        try edit(path) { _ in good + "\nSee [the codes](/codes/502/).\n" }
        let mended = build()
        XCTAssertFalse(mended.rewritten.isEmpty, "\(mended.diagnostics)")
        try assertEqualsCleanBuild(mended, "mended")
    }

    // MARK: - Helpers

    private func options(output: String = "public", cache: BuildOptions.Cache = .use) -> BuildOptions {
        var options = BuildOptions(output: output, base: project.url)
        options.cache = cache
        options.toolIdentity = "test"
        return options
    }

    private func build() -> BuildReport { SiteBuilder.build(options()) }

    /// A sentence added to, or one taken out of, a paragraph of an article written in the
    /// default language, with words no other article has; headings and front matter kept.
    private func editSomeText(aged: Bool = true) throws -> String {
        let articles = FileManager.default.subpaths(atPath: project.path + "/content/articles")!.filter {
            $0.hasSuffix(".md") && $0.split(separator: ".").count == 2
        }.sorted()
        let path = "content/articles/" + articles[Int(random.next() % UInt64(articles.count))]
        let word = ["zygomorphic", "quixotically", "rebalancings", "connections", "upstream"][Int(random.next() % 5)]
        let add = random.next() % 3 != 0
        try edit(path, aged: aged) { text in
            var lines = text.components(separatedBy: "\n")
            let fence = lines.dropFirst().firstIndex(of: "---") ?? 0
            let paragraphs = lines.indices.filter { $0 > fence && (lines[$0].first?.isLetter ?? false) }
            guard !paragraphs.isEmpty else { return text + "\nAdded \(word) text.\n" }
            let line = paragraphs[Int(random.next() % UInt64(paragraphs.count))]
            if add {
                lines[line] += " Operators saw \(word) handshakes \(self.edits) here."
            } else if let stop = lines[line].firstIndex(of: ".") {
                lines[line] = String(lines[line][lines[line].index(after: stop)...]).trimmingCharacters(in: .whitespaces)
            }
            return lines.joined(separator: "\n")
        }
        return path
    }

    /// Writes the file with a modification time of its own, out of the racy window unless not
    /// `aged`.
    private func edit(_ relative: String, aged: Bool = true, _ change: (String) -> String) throws {
        try project.write([relative: change(try project.read(relative))])
        edits += 1
        guard aged else { return }
        let time = Date().addingTimeInterval(-100 + Double(edits))
        try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: project.url.appendingPathComponent(relative).path)
    }

    private func assertEqualsCleanBuild(_ report: BuildReport, _ change: String, line: UInt = #line) throws {
        let clean = SiteBuilder.build(options(output: "clean", cache: .off))
        XCTAssertTrue(clean.wroteOutput, change, line: line)
        XCTAssertEqual(report.diagnostics.sortedForOutput(), clean.diagnostics.sortedForOutput(), change, line: line)
        let (rebuilt, expected) = (project.snapshot("public"), project.snapshot("clean"))
        XCTAssertEqual(Set(rebuilt.keys), Set(expected.keys), change, line: line)
        for (path, data) in expected where rebuilt[path] != data {
            XCTFail("\(change): public/\(path) differs from a clean build's", line: line)
        }
        try FileManager.default.removeItem(at: project.url.appendingPathComponent("clean"))
    }

}
