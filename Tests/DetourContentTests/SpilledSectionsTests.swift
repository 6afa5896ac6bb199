import DetourDiagnostics
import DetourSupport
import DetourYAML
import Foundation
import XCTest

@testable import DetourContent

final class SpilledSectionsTests: XCTestCase {
    /// Spilled sections read back as they were: text before the first heading, every heading
    /// level, empty text, non-ASCII; the count of headed sections stays at hand.
    func testSectionsReadBackAsWritten() throws {
        let markdown = "Intro ü text.\n\n# One\n\nfirst\n\n###### Deep `code`\n\n## Empty\n\n## 日本語\n\nテキスト 502\n"
        let sections = MarkdownDocument(markdown).render().sections
        XCTAssertEqual(sections.map(\.heading?.text), [nil, "One", "Empty", "日本語"], "a sixth-level heading is text of its section")
        let spill = try XCTUnwrap(TextSpill())
        let spilled = try XCTUnwrap(SpilledSections(sections, to: spill))
        XCTAssertEqual(spilled.sections, sections)
        XCTAssertEqual(spilled.headedCount, 3)
        XCTAssertEqual(try XCTUnwrap(SpilledSections([], to: spill)).sections, [])
    }

    /// An article whose sections are spilled reads the same as before, its translations' too.
    func testAnArticleSpillsItsSectionsAndItsTranslations() throws {
        var article = try XCTUnwrap(Self.article("# Title\n\nBody.\n"))
        var translation = try XCTUnwrap(Self.article("Vorwort.\n\n## Titel\n\nText.\n"))
        translation.slug = "translated"
        article.translations["de"] = translation
        let before = (article.sections, translation.sections)
        article.spillSections(to: try XCTUnwrap(TextSpill()))
        XCTAssertTrue(article.searchSections.held.isEmpty && article.translations["de"]!.searchSections.held.isEmpty)
        XCTAssertEqual(article.sections, before.0)
        XCTAssertEqual(article.translations["de"]!.sections, before.1)
        XCTAssertEqual(article.translations["de"]!.sections.first?.text, "Vorwort.")
        XCTAssertEqual(article.searchSections.headedCount, 1)
        XCTAssertEqual(article.translations["de"]!.searchSections.headedCount, 1)
    }

    private static func article(_ body: String) -> Article? {
        let text = "---\ntitle: An article\nsummary: What it is about.\n---\n" + body
        var diagnostics: [Diagnostic] = []
        let file = SourceFile(displayPath: "content/articles/a.md", url: URL(fileURLWithPath: "/content/articles/a.md"), text: text)
        var article = ArticleReader.read(file, relativePath: "articles/a.md", diagnostics: &diagnostics)
        _ = article?.readBody(with: MarkdownRenderer(resolver: LinkResolver(articles: [], statuses: []), markdown: MarkdownOptions()))
        return article
    }
}

/// A build lets each article's body go after reading its front matter, and reads the file
/// again to parse it: the same file gives the same article, a changed one stops the build.
final class DroppedBodyTests: XCTestCase {
    func testABodyReadAgainIsTheSameAndAChangedFileIsReported() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("detour-body-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("articles"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let text = "---\ntitle: An article\nsummary: What it is about.\n---\nIntro.\n\n## Steps\n\nDo this.\n"
        let path = root.appendingPathComponent("articles/a.md")
        try text.write(to: path, atomically: true, encoding: .utf8)
        let renderer = MarkdownRenderer(resolver: LinkResolver(articles: [], statuses: []), markdown: MarkdownOptions())
        func read() throws -> Article {
            var diagnostics: [Diagnostic] = []
            let file = SourceFile(displayPath: "content/articles/a.md", url: path, text: try String(contentsOf: path, encoding: .utf8))
            return try XCTUnwrap(ArticleReader.read(file, relativePath: "articles/a.md", diagnostics: &diagnostics))
        }
        var kept = try read()
        _ = kept.readBodyKeepingNoTree(with: renderer, contentRoot: root)
        var dropped = try read()
        dropped.dropBody(fileText: text)
        XCTAssertEqual(dropped.body, "")
        XCTAssertEqual(dropped.readBodyKeepingNoTree(with: renderer, contentRoot: root).diagnostics.map(\.message), [])
        XCTAssertEqual(dropped.sections, kept.sections)
        XCTAssertEqual(dropped.bodyHash, kept.bodyHash)

        var edited = try read()
        edited.dropBody(fileText: text)
        try text.replacingOccurrences(of: "title: An article", with: "title: Renamed").write(to: path, atomically: true, encoding: .utf8)
        let diagnostics = edited.readBodyKeepingNoTree(with: renderer, contentRoot: root).diagnostics
        XCTAssertEqual(
            diagnostics.map { "\($0.location.path): [\($0.rule)] \($0.message)" },
            ["content/articles/a.md: [build.content-changed] 'content/articles/a.md' changed while the site was being built; build again"],
            "a change to the front matter alone counts too")
    }
}
