import DetourDiagnostics
import DetourYAML
import Foundation
import XCTest

@testable import DetourContent

final class FrontMatterTests: XCTestCase {
    private func split(_ text: String) -> Result<FrontMatter, Diagnostic> {
        FrontMatter.split(SourceFile(displayPath: "a.md", url: URL(fileURLWithPath: "/a.md"), text: text))
    }

    func testSplitsYAMLAndBodyWithTheBodyLine() throws {
        let parts = try split("---\ntitle: T\nsummary: S\n---\n\n# Body\n").get()
        XCTAssertEqual(parts.yaml, "title: T\nsummary: S\n")
        XCTAssertEqual(parts.body, "\n# Body\n")
        XCTAssertEqual(parts.bodyStartLine, 5)
    }

    func testAcceptsWindowsLineEndingsAByteOrderMarkAndDotsFence() throws {
        let parts = try split("\u{FEFF}---\r\ntitle: T\r\n...\r\nBody").get()
        XCTAssertEqual(parts.yaml, "title: T\r\n")
        XCTAssertEqual(parts.body, "Body")
        XCTAssertEqual(parts.bodyStartLine, 4)
    }

    func testClosingFenceAtEndOfFile() throws {
        let parts = try split("---\ntitle: T\n---").get()
        XCTAssertEqual(parts.body, "")
    }

    func testRulesInTheBodyAreNotFences() throws {
        let parts = try split("---\na: 1\n---\ntext\n\n---\n\nmore\n").get()
        XCTAssertEqual(parts.yaml, "a: 1\n")
        XCTAssertEqual(parts.body, "text\n\n---\n\nmore\n")
    }

    func testMissingAndUnclosedFrontMatter() {
        XCTAssertEqual(try? split("title: T\n").mapError { $0 }.get().yaml, nil)
        if case .failure(let diagnostic) = split("title: T\n") { XCTAssertEqual(diagnostic.rule, "article.missing-front-matter") } else { XCTFail() }
        if case .failure(let diagnostic) = split("---\ntitle: T\n") { XCTAssertEqual(diagnostic.rule, "article.unterminated-front-matter") } else { XCTFail() }
        if case .failure(let diagnostic) = split("----\ntitle: T\n---\n") { XCTAssertEqual(diagnostic.rule, "article.missing-front-matter") } else { XCTFail() }
    }

    func testISODates() {
        XCTAssertTrue(ArticleReader.isISODate("2024-02-29"))
        XCTAssertFalse(ArticleReader.isISODate("2023-02-29"))
        XCTAssertFalse(ArticleReader.isISODate("2026-04-31"))
        XCTAssertFalse(ArticleReader.isISODate("2026-4-01"))
        XCTAssertFalse(ArticleReader.isISODate("yesterday"))
    }
}
