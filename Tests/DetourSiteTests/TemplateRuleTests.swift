import DetourTestSupport
import Foundation
import XCTest

final class TemplateRuleTests: SiteTestCase {
    func testTemplateSyntaxError() throws {
        let folder = try site(["templates/tag.mustache": "<h1>\n{{#tag}}\n{{/tags}}\n"])
        assertFails(folder, with: "templates/tag.mustache:3:5: error: [template.syntax] invalid Mustache: closing tag does not match the open section")
    }

    func testUnclosedTag() throws {
        let folder = try site(["templates/tag.mustache": "<h1>{{tag.name</h1>"])
        let text = diagnostics(folder)
        XCTAssertTrue(text.contains("templates/tag.mustache:1:"), text)
        XCTAssertTrue(text.contains("error: [template.syntax] invalid Mustache:"), text)
    }

    func testMissingPartialIsAnErrorAtTheTag() throws {
        let folder = try site(["templates/tag.mustache": "<html>\n  <body>{{> partials/haeder}}</body>\n"])
        assertFails(folder, with: "templates/tag.mustache:2:9: error: [template.missing-partial] partial 'partials/haeder' used by template 'tag' does not exist; did you mean 'partials/header'?")
    }

    func testMissingRequiredTemplate() throws {
        let folder = try site(["templates/article.mustache": ""])
        assertFails(folder, with: "templates/article.mustache:1:1: error: [template.missing] required template 'article' is missing; create templates/article.mustache")
    }

    func testMissingTemplatesFolder() throws {
        let folder = try site()
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("templates"))
        assertFails(folder, with: "templates:1:1: error: [template.missing-folder] templates folder 'templates' does not exist")
    }

    func testErrorPageOverBudget() throws {
        let longAdvice = String(repeating: "Please wait a little and then try again. ", count: 250)
        let folder = try site(["content/codes/502.yml": "status: 502\ntitle: Bad Gateway\nsummary: x\nadvice: \"\(longAdvice)\"\n"])
        let text = diagnostics(folder)
        // Named by file, at the advice that makes it large.
        XCTAssertTrue(text.contains("content/codes/502.yml:4:9: error: [errorpage.too-large] errors/en/502.html is "), text)
        XCTAssertTrue(text.contains("bytes, over its 8192-byte budget; shorten the advice or the error template"), text)
    }

    func testMissingAdviceIsAWarningThatStrictTurnsIntoFailure() throws {
        let folder = try site(["content/codes/502.yml": "status: 502\ntitle: Bad Gateway\nsummary: x\n"])
        let relaxed = build(folder)
        XCTAssertEqual(relaxed.diagnostics.map(\.rule), ["code.missing-advice"])
        XCTAssertTrue(relaxed.wroteOutput)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("public"))
        let strict = build(folder, strict: true)
        XCTAssertFalse(strict.wroteOutput)
        XCTAssertFalse(folder.exists("public"))
    }

    func testPartialScannerSkipsCommentsAndDynamicNames() throws {
        let folder = try site(["templates/tag.mustache": "{{! {{> partials/none}} }}\n{{>*dynamic}}\n{{> partials/head}}\n"])
        XCTAssertEqual(diagnostics(folder), "")
    }
}
