import DetourDiagnostics
import DetourSupport
import DetourYAML
import Foundation
import XCTest

@testable import DetourContent

final class SpilledSectionsTests: XCTestCase {
    /// Spilled sections read back as they were: text before the first heading, every heading
    /// level, empty text, non-ASCII; the intro and the count of headed sections stay at hand.
    func testSectionsReadBackAsWritten() throws {
        let markdown = "Intro ü text.\n\n# One\n\nfirst\n\n###### Deep `code`\n\n## Empty\n\n## 日本語\n\nテキスト 502\n"
        let sections = MarkdownDocument(markdown).render().sections
        XCTAssertEqual(sections.map(\.heading?.text), [nil, "One", "Empty", "日本語"], "a sixth-level heading is text of its section")
        let spill = try XCTUnwrap(TextSpill())
        let spilled = try XCTUnwrap(SpilledSections(sections, to: spill))
        XCTAssertEqual(spilled.sections, sections)
        XCTAssertEqual(spilled.intro, "Intro ü text.")
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
        XCTAssertTrue(article.heldSections.isEmpty && article.translations["de"]!.heldSections.isEmpty)
        XCTAssertEqual(article.sections, before.0)
        XCTAssertEqual(article.translations["de"]!.sections, before.1)
        XCTAssertEqual(article.translations["de"]!.intro, "Vorwort.")
        XCTAssertEqual(article.intro, nil)
        XCTAssertEqual(article.headedSectionCount, 1)
    }

    private static func article(_ body: String) -> Article? {
        let text = "---\ntitle: An article\nsummary: What it is about.\n---\n" + body
        var diagnostics: [Diagnostic] = []
        let file = SourceFile(displayPath: "content/articles/a.md", url: URL(fileURLWithPath: "/content/articles/a.md"), text: text)
        var article = ArticleReader.read(file, relativePath: "articles/a.md", diagnostics: &diagnostics)
        _ = article?.readBody(with: MarkdownRenderer(resolver: LinkResolver(articles: [], statuses: []), allowRawHTML: false))
        return article
    }
}
