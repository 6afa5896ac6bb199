import DetourLanguages
import DetourTestSupport
import Foundation
import XCTest

/// Rules about site.yml: the values that end up in CSS, links and the inlined logo.
final class SiteRuleTests: SiteTestCase {
    private let base = "name: S\nbase_url: https://h.test/\n"

    func testBaseURLMustBeAbsolute() throws {
        let folder = try site(["content/site.yml": "name: S\nbase_url: help.example.com\n"])
        assertFails(folder, with: "content/site.yml:2:11: error: [site.invalid-url] 'base_url' must be an absolute http or https URL, not 'help.example.com'")
    }

    func testColourCannotInjectCSS() throws {
        let folder = try site(["content/site.yml": base + "colors:\n  dark:\n    text: \"red;}body{display:none\"\n"])
        assertFails(
            folder, with: "content/site.yml:5:11: error: [site.invalid-color] 'text' must be a hex colour such as '#0a5bd3', not 'red;}body{display:none'")
    }

    func testLanguageTag() throws {
        let folder = try site(["content/site.yml": base + "languages: english!\n"])
        assertFails(
            folder, with: "content/site.yml:3:12: error: [site.invalid-language] 'languages' must be a language tag such as 'en' or 'pt-BR', not 'english!'")
        let unknown = try site(["content/site.yml": base + "languages: [en, xx]\n"])
        assertFails(unknown, with: "content/site.yml:3:17: error: [site.invalid-language] 'languages' 'xx' is not a known language: 'xx' is no ISO 639-1 code")
    }

    /// Written into the Varnish snippet as a duration: a whole number of seconds, up to a week.
    func testStaleIfErrorIsSecondsUpToAWeek() throws {
        assertFails(
            try site(["content/site.yml": base + "stale_if_error: 6h\n"]),
            with: "content/site.yml:3:17: error: [content.type-mismatch] 'stale_if_error' must be a whole number")
        assertFails(
            try site(["content/site.yml": base + "stale_if_error: 604801\n"]),
            with: "content/site.yml:3:17: error: [content.out-of-range] 'stale_if_error' must be between 1 and 604800, not 604801")
    }

    func testLogoMustStayInsideContent() throws {
        let folder = try site(["content/site.yml": base + "logo: ../../etc/passwd\n"])
        assertFails(folder, with: "content/site.yml:3:7: error: [site.path-escape] 'logo' must name a file inside content/, not '../../etc/passwd'")
    }

    func testLogoMustExist() throws {
        let folder = try site(["content/site.yml": base + "logo: brand/logo.svg\n"])
        assertFails(folder, with: "content/site.yml:3:7: error: [site.missing-file] logo file 'content/brand/logo.svg' does not exist")
    }

    func testLogoMustBeSVG() throws {
        let folder = try site(["content/site.yml": base + "logo: logo.svg\n", "content/logo.svg": "PNG?\n"])
        assertFails(folder, with: "content/site.yml:3:7: error: [site.invalid-logo] logo 'content/logo.svg' must be an SVG document (<svg>…</svg>)")
    }

    func testLogoMayNotScript() throws {
        let folder = try site(["content/site.yml": base + "logo: logo.svg\n", "content/logo.svg": "<svg>\n<script>alert(1)</script>\n</svg>\n"])
        assertFails(
            folder, with: "content/logo.svg:2:1: error: [site.logo-script] logo must not contain scripts or event handlers: error pages run no JavaScript")
    }

    func testLogoMayNotFetchAnything() throws {
        let folder = try site([
            "content/site.yml": base + "logo: logo.svg\n",
            "content/logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\">\n<image href=\"https://cdn.test/a.png\"/>\n</svg>\n",
        ])
        assertFails(
            folder,
            with:
                "content/logo.svg:2:1: error: [site.logo-external-reference] logo refers to an external resource; error pages must make no external request while the backend is down"
        )
    }

    func testLogoIsInlinedWithoutItsXMLProlog() throws {
        let folder = try site([
            "content/site.yml": base + "logo: logo.svg\n",
            "content/logo.svg": "<?xml version=\"1.0\"?>\n<!-- mark -->\n<svg viewBox=\"0 0 1 1\"><rect width=\"1\" height=\"1\"/></svg>\n",
        ])
        XCTAssertTrue(build(folder).wroteOutput)
        let page = try folder.read("public/errors/502.html")
        XCTAssertTrue(page.contains("<svg viewBox=\"0 0 1 1\"><rect width=\"1\" height=\"1\"/></svg>"))
        XCTAssertFalse(page.contains("<?xml"))
        XCTAssertFalse(page.contains("mark"))
    }
}
