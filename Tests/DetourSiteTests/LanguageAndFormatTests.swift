import DetourDiagnostics
import DetourTestSupport
import Foundation
import XCTest

/// Languages, translations, output formats and the mistakes a new user makes with them.
final class LanguageAndFormatTests: SiteTestCase {
    private let base = "name: S\nbase_url: https://h.test/\n"

    func testEveryCodeIsWrittenInEveryLanguageAndFormat() throws {
        let folder = try site([
            "content/site.yml": base + "languages: [en, de]\n",
            "content/translations/de.yml": """
            strings:
              try_again: Erneut versuchen
            codes:
              502:
                title: Fehlerhaftes Gateway
                summary: Keine gültige Antwort.
                advice: Bitte [später](/codes/502/) erneut versuchen.
            """,
        ])
        let report = build(folder)
        XCTAssertTrue(report.wroteOutput, DiagnosticFormat.text.render(report.diagnostics, toolVersion: "test"))
        for path in ["errors/502.html", "errors/en/502.json", "errors/de/502.txt", "errors/de/502.http"] {
            XCTAssertTrue(folder.exists("public/" + path), path)
        }
        let german = try folder.read("public/errors/de/502.html")
        XCTAssertTrue(german.contains("<html lang=\"de\">") && german.contains("<h1>Fehlerhaftes Gateway</h1>") && german.contains(">Erneut versuchen<"))
        XCTAssertTrue(german.contains("href=\"https://h.test/de/codes/502/\""), "advice links are absolute, into the page's language")
        XCTAssertTrue(german.contains("Error 502"), "a string the translation lacks falls back to English")

        let problem = try JSONSerialization.jsonObject(with: Data(try folder.read("public/errors/de/502.json").utf8)) as? [String: Any]
        XCTAssertEqual(problem?["type"] as? String, "https://h.test/codes/502/")
        XCTAssertEqual(problem?["status"] as? Int, 502)
        XCTAssertEqual(problem?["title"] as? String, "Fehlerhaftes Gateway")
        XCTAssertEqual(problem?["advice"] as? String, "Bitte später (https://h.test/de/codes/502/) erneut versuchen.")

        let response = try folder.read("public/errors/de/502.http")
        let parts = response.components(separatedBy: "\r\n\r\n")
        XCTAssertTrue(parts[0].hasPrefix("HTTP/1.0 502 Bad Gateway\r\nContent-Type: text/html; charset=utf-8\r\n"), parts[0])
        XCTAssertTrue(
            parts[0].contains("\r\nContent-Length: \(parts.dropFirst().joined(separator: "\r\n\r\n").utf8.count)\r\n"), "Content-Length is the body's bytes")
        XCTAssertTrue(parts[0].contains("\r\nCache-Control: no-store\r\n") && parts[0].hasSuffix("\r\nConnection: close"))

        // The warnings that say where German falls back to English.
        let text = DiagnosticFormat.text.render(report.diagnostics, toolVersion: "test")
        // One warning names every string it lacks, in order, and says what stands in.
        let missing = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("[translation.missing] translation 'de' lacks strings") }, text)
        XCTAssertTrue(missing.hasPrefix("content/translations/de.yml:1:1: warning: [translation.missing] translation 'de' lacks strings 'advice_heading', "))
        XCTAssertTrue(missing.contains("'call', ") && !missing.contains("'try_again'") && missing.hasSuffix("; the en text is used"), String(missing))
    }

    func testTranslationProblemsAreLocated() throws {
        let folder = try site([
            "content/site.yml": base + "languages: [en, de, fr]\n",
            "content/translations/de.yml": "strings:\n  try_agian: Erneut\ncodes:\n  502:\n    titel: X\n",
        ])
        let text = diagnostics(folder)
        XCTAssertTrue(
            text.contains(
                "content/translations/de.yml:2:3: warning: [translation.unknown-key] unknown string 'try_agian' in translation 'de'; did you mean 'try_again'?"),
            text)
        XCTAssertTrue(
            text.contains(
                "content/translations/de.yml:5:5: error: [content.unknown-field] unknown field 'titel' in translation of code 502; did you mean 'title'?"), text
        )
        XCTAssertTrue(
            text.contains("content/site.yml:3:21: warning: [translation.missing] no content/translations/fr.yml: error pages in 'fr' use the en texts"), text)
    }

    func testOneBrokenCodeFileIsReportedOnceNotAsFollowOnErrors() throws {
        let folder = try site(["content/codes/502.yml": "status: 502\ntitle: Bad Gateway\nadvice: x\n"])
        let lines = diagnostics(folder).split(separator: "\n")
        XCTAssertEqual(lines.first, "content/codes/502.yml:1:1: error: [content.missing-field] error code definition is missing required field 'summary'")
        XCTAssertFalse(lines.contains { $0.contains("has no definition") }, "the article's code 502 only follows from the broken file: \(lines)")
    }

    func testLogoMustBeSmallSVG() throws {
        let png = try site(["content/site.yml": base + "logo: logo.png\n"])
        try png.writeData("content/logo.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF, 0xFE]))
        assertFails(
            png,
            with:
                "content/site.yml:3:7: error: [site.invalid-logo] logo 'content/logo.png' is a PNG image; error pages inline the logo as SVG markup, so it must be an SVG file"
        )

        let big = try site([
            "content/site.yml": base + "logo: logo.svg\n",
            "content/logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: "<rect width=\"1\" height=\"1\"/>", count: 200) + "</svg>",
        ])
        let text = diagnostics(big)
        XCTAssertTrue(
            text.contains("content/site.yml:3:7: error: [site.logo-too-large] logo 'content/logo.svg' is 5646 bytes, over the 4096-byte budget"), text)
        XCTAssertFalse(text.contains("errorpage.too-large"), "the logo is named, not the code files")
    }

    func testErrorPathStaysOutOfTheApplicationsWay() throws {
        let dotted = try site(["content/site.yml": base + "error_path: /.errors/\n"])
        assertFails(
            dotted,
            with:
                "content/site.yml:3:13: error: [site.invalid-path] 'error_path' must not have a part starting with '.': hardening configurations deny such paths, so the pages would answer 403; not '/.errors/'"
        )
        let taken = try site(["content/site.yml": base + "error_path: /errors/\n"])
        assertFails(
            taken,
            with:
                "content/site.yml:3:13: error: [site.invalid-path] 'error_path' must not be '/errors/', which applications often serve themselves; use '/detour-errors/'"
        )
    }

    func testFootersAreSeparate() throws {
        let folder = try site(["content/site.yml": base + "footer: Help site footer\nerror_footer: Served by the edge proxy\n"])
        XCTAssertTrue(build(folder).wroteOutput)
        let errorPage = try folder.read("public/errors/502.html")
        let article = try folder.read("public/articles/refused/index.html")
        XCTAssertTrue(errorPage.contains("Served by the edge proxy") && !errorPage.contains("Help site footer"))
        XCTAssertTrue(article.contains("Help site footer") && !article.contains("Served by the edge proxy"))
    }
}
