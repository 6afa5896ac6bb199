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
        assertFails(
            folder,
            with:
                "templates/tag.mustache:2:9: error: [template.missing-partial] partial 'partials/haeder' used by template 'tag' does not exist; did you mean 'partials/header'?"
        )
    }

    func testATemplateThatRendersNothingIsAnErrorNotABlankPage() throws {
        // Everything inside a section the page has no data for: every article page is empty.
        let folder = try site(["templates/article.mustache": "{{#articel}}\n<h1>{{title}}</h1>\n{{/articel}}\n"])
        assertFails(
            folder,
            with:
                "templates/article.mustache:1:1: error: [template.empty-page] template 'article' renders nothing: its pages (articles/refused/index.html, …) would be blank"
        )
    }

    /// Cloudflare publishes a page only with its box's token, exactly once; the build names
    /// the page that lacks it or repeats it, over 10 KB, or with a referrer policy.
    func testCloudflarePagesAreCheckedAsCloudflareChecksThem() throws {
        assertFails(
            try site(["templates/cloudflare.mustache": "<h1>{{page.title}}</h1>\n"]),
            with:
                "templates/cloudflare.mustache:1:1: error: [cloudflare.token-count] errors/cloudflare/en/500_errors.html does not carry the token ::CLOUDFLARE_ERROR_500S_BOX::, and Cloudflare publishes a 500_errors page only with it exactly once"
        )
        assertFails(
            try site(["templates/cloudflare.mustache": "<h1>{{page.title}}</h1>\n{{{page.token}}} {{{page.token}}}\n"]),
            with:
                "templates/cloudflare.mustache:1:1: error: [cloudflare.token-count] errors/cloudflare/en/managed_challenge.html carries 2 times the token ::CAPTCHA_BOX::, and Cloudflare publishes a managed_challenge page only with it exactly once"
        )
        let filler = String(repeating: "<p>padding</p>", count: 800)
        let large = try site(["templates/cloudflare.mustache": "<h1>{{page.title}}</h1>{{{page.token}}}\n\(filler)\n"])
        let text = diagnostics(large)
        XCTAssertTrue(
            text.contains("error: [cloudflare.page-too-large] errors/cloudflare/en/waf_block.html is 11"), "every page over 10 KB is named: \(text)")
        XCTAssertTrue(text.contains("over 10240: Cloudflare takes at most 10 KB of HTML in a custom error rule"), text)
        assertFails(
            try site(["templates/cloudflare.mustache": "<meta name=\"referrer\" content=\"no-referrer\">{{{page.token}}}\n"]),
            with:
                "templates/cloudflare.mustache:1:1: error: [cloudflare.referrer-meta] errors/cloudflare/en/ip_block.html sets a referrer policy (<meta name=\"referrer\">), which breaks Cloudflare's challenges"
        )
    }

    func testAProjectTemplateOverridesTheBuiltInThemeFileByFile() throws {
        // The project keeps only its own tag page: every other template is the built-in one.
        let folder = try site(["templates/tag.mustache": "<p>Our own tag page: {{tag.name}}</p>\n"])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("templates/article.mustache"))
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("templates/partials"))
        let report = build(folder)
        XCTAssertEqual(report.diagnostics.filter { $0.severity == .error }.map(\.message), [])
        let tags = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/public/tags")
        let tagPage = try String(contentsOfFile: folder.path + "/public/tags/\(try XCTUnwrap(tags.first))/index.html", encoding: .utf8)
        XCTAssertTrue(tagPage.hasPrefix("<p>Our own tag page: "), tagPage)
        let articles = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/public/articles")
        let articlePage = try String(contentsOfFile: folder.path + "/public/articles/\(try XCTUnwrap(articles.first))/index.html", encoding: .utf8)
        XCTAssertTrue(articlePage.contains("<main class=\"article\">"), "the built-in article template, with its partials: \(articlePage.prefix(300))")
        XCTAssertTrue(folder.exists("public/search.js"), "the built-in theme's assets")
    }

    /// Inheritance is not compiled: a theme that uses it renders through swift-mustache, the
    /// same pages with the same values.
    func testATemplateWithInheritanceRendersThroughSwiftMustache() throws {
        let folder = try site([
            "templates/layout.mustache": "<h1>{{$heading}}Tag{{/heading}}</h1>\n{{$body}}{{/body}}\n",
            "templates/tag.mustache":
                "{{<layout}}{{$heading}}{{tag.name}} &{{/heading}}{{$body}}<p>{{count(tag.articles)}} articles</p>{{#tag.articles}}{{{card}}}{{/tag.articles}}{{/body}}{{/layout}}\n",
        ])
        let report = build(folder)
        XCTAssertEqual(report.diagnostics.filter { $0.severity == .error }.map(\.message), [])
        let tags = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/public/tags")
        let tagPage = try String(contentsOfFile: folder.path + "/public/tags/\(try XCTUnwrap(tags.first))/index.html", encoding: .utf8)
        XCTAssertTrue(tagPage.hasPrefix("<h1>\(try XCTUnwrap(tags.first)) &</h1>\n<p>"), tagPage)
        XCTAssertTrue(tagPage.contains(" articles</p>"), tagPage)
        XCTAssertTrue(tagPage.contains("<li><a href=\"../../articles/"), "each article's card, made as the list shows it: \(tagPage)")
        let articles = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/public/articles")
        let articlePage = try String(contentsOfFile: folder.path + "/public/articles/\(try XCTUnwrap(articles.first))/index.html", encoding: .utf8)
        XCTAssertTrue(articlePage.contains("<main class=\"article\">"), "the other templates render as ever: \(articlePage.prefix(300))")
    }

    func testWithoutATemplatesFolderTheBuiltInThemeBuildsTheSite() throws {
        let folder = try site()
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("templates"))
        XCTAssertEqual(diagnostics(folder), "")
        XCTAssertTrue(folder.exists("public/index.html"))
        XCTAssertTrue(folder.exists("public/errors/502.html"))
    }

    func testANamedTemplatesFolderThatDoesNotExist() throws {
        let folder = try site()
        assertFails(folder, with: "themes/mine:1:1: error: [template.missing-folder] templates folder 'themes/mine' does not exist", templates: "themes/mine")
    }

    func testAnErrorInAnOverrideNamesTheProjectFile() throws {
        let folder = try site()
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("templates"))
        try folder.write(["templates/partials/footer.mustache": "{{#site}}\n"])
        let text = diagnostics(folder)
        XCTAssertTrue(text.contains("templates/partials/footer.mustache:"), text)
        XCTAssertFalse(text.contains("(built-in theme)"), text)
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
