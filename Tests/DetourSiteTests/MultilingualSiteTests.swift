import DetourDiagnostics
import DetourTestSupport
import Foundation
import XCTest

/// The help site in every language of the error pages: each error page links to the help
/// page in its language, articles are translated as `<name>.<language>.md` and fall back to
/// the original with a notice, and pages name their alternates for browsers and crawlers.
final class MultilingualSiteTests: SiteTestCase {
    private func germanSite(_ overrides: [String: String] = [:]) throws -> TemporaryFolder {
        try site(
            [
                "content/site.yml": "name: Sample\nbase_url: https://help.sample.test/\nlanguages: [en, de, fr]\n",
                "content/translations/de.yml": """
                strings:
                  for_operators: Für Betreiber der Website
                  not_translated: Diese Seite ist noch nicht übersetzt.
                  language_name: Deutsch
                  alert_tip: Tipp
                codes:
                  502:
                    title: Fehlerhaftes Gateway
                    summary: Keine gültige Antwort.
                    advice: Bitte [später](/codes/502/) erneut versuchen.
                """,
                "content/translations/fr.yml": "strings:\n  not_translated: Cette page n’est pas encore traduite.\n",
                "content/articles/refused.de.md": """
                ---
                title: Verbindung abgelehnt
                summary: Am Port des Upstreams lauscht nichts.
                ---

                ## Den Port prüfen

                Siehe [den Code](/codes/502/) und [den Artikel](refused.md).

                > [!TIP]
                > Erst den Port prüfen.
                """,
            ].merging(overrides) { _, new in new })
    }

    func testTheGermanErrorPageLinksToTheGermanHelpPage() throws {
        let folder = try germanSite()
        let report = build(folder)
        XCTAssertTrue(report.wroteOutput, DiagnosticFormat.text.render(report.diagnostics, toolVersion: "test"))
        let errorPage = try folder.read("public/errors/de/502.html")
        XCTAssertTrue(errorPage.contains("href=\"https://help.sample.test/de/codes/502/\""), errorPage)

        let help = try folder.read("public/de/codes/502/index.html")
        XCTAssertTrue(help.contains("<html lang=\"de\">"))
        XCTAssertTrue(help.contains("<h1>Fehlerhaftes Gateway</h1>"), help)
        XCTAssertTrue(help.contains("<h2 id=\"for-site-operators\">Für Betreiber der Website</h2>") || !help.contains("for-site-operators"))
        XCTAssertTrue(help.contains("<a href=\"../../codes/502/\">später</a>"), "advice links stay in the German folder")
        XCTAssertTrue(help.contains("<link rel=\"stylesheet\" href=\"../../../style.css\">"))
        XCTAssertTrue(help.contains("<link rel=\"alternate\" hreflang=\"de\" href=\"https://help.sample.test/de/codes/502/\">"))
        XCTAssertTrue(help.contains("<link rel=\"alternate\" hreflang=\"x-default\" href=\"https://help.sample.test/codes/502/\">"))
        XCTAssertTrue(
            help.contains("<a href=\"../../../codes/502/\" hreflang=\"en\" lang=\"en\">English</a>"), "the switcher leads to the same page in English")
        XCTAssertTrue(help.contains("<span aria-current=\"page\" lang=\"de\">Deutsch</span>"))
        XCTAssertTrue(help.contains("href=\"../../../errors/de/502.html\""), "the preview is the German error page")

        // JSON names the problem the same in every language and links to help in the page's.
        let problem = try JSONSerialization.jsonObject(with: Data(try folder.read("public/errors/de/502.json").utf8)) as? [String: Any]
        XCTAssertEqual(problem?["type"] as? String, "https://help.sample.test/codes/502/")
        XCTAssertEqual(problem?["help"] as? String, "https://help.sample.test/de/codes/502/")
    }

    func testTranslatedAdviceSpeaksItsLanguageOnTheErrorPageAndTheHelpPage() throws {
        let folder = try germanSite([
            "content/translations/de.yml": """
            strings:
              alert_tip: Tipp
            codes:
              502:
                title: Fehlerhaftes Gateway
                summary: Keine gültige Antwort.
                advice: |
                  > [!TIP]
                  > Bitte [später](/codes/502/) erneut versuchen.
            """
        ])
        let report = build(folder)
        XCTAssertTrue(report.wroteOutput, DiagnosticFormat.text.render(report.diagnostics, toolVersion: "test"))
        let title = "<p class=\"markdown-alert-title\">Tipp</p>"
        let errorPage = try folder.read("public/errors/de/502.html")
        XCTAssertTrue(errorPage.contains(title), errorPage)
        XCTAssertTrue(
            errorPage.contains("<a href=\"https://help.sample.test/de/codes/502/\">später</a>"), "the proxy's page links absolutely, to German help")
        let text = try folder.read("public/errors/de/502.txt")
        XCTAssertTrue(text.contains("https://help.sample.test/de/codes/502/"), text)
        let help = try folder.read("public/de/codes/502/index.html")
        XCTAssertTrue(help.contains(title), help)
        XCTAssertTrue(help.contains("<a href=\"../../codes/502/\">später</a>"), "the help page links within its language's folder")
        XCTAssertFalse(try folder.read("public/codes/502/index.html").contains("Tipp"), "the English page keeps its own advice")
    }

    func testFootnotesLinkBackInTheArticlesLanguage() throws {
        let article = "---\ntitle: T\nsummary: S\n---\n\nThe \"timeout\" -- in seconds[^s].\n\n[^s]: As `proxy_read_timeout` takes it.\n"
        let folder = try germanSite([
            "content/articles/timeout.md": article,
            "content/articles/timeout.de.md": article.replacingOccurrences(of: "The", with: "Der"),
            "content/translations/de.yml": "strings:\n  footnote_back: Zurück zum Text\n",
        ])
        let report = build(folder)
        XCTAssertTrue(report.wroteOutput, DiagnosticFormat.text.render(report.diagnostics, toolVersion: "test"))
        let english = try folder.read("public/articles/timeout/index.html")
        XCTAssertTrue(english.contains("in seconds<sup class=\"footnote-ref\"><a href=\"#fn-s\" id=\"fnref-s\" data-footnote-ref>1</a></sup>"), english)
        XCTAssertTrue(english.contains("<li id=\"fn-s\">"), english)
        XCTAssertTrue(english.contains("aria-label=\"Back to content\">\u{21A9}</a></p>"), english)
        XCTAssertTrue(english.contains("The &quot;timeout&quot; -- in seconds"), "no smart punctuation unless site.yml asks")
        let german = try folder.read("public/de/articles/timeout/index.html")
        XCTAssertTrue(german.contains("aria-label=\"Zurück zum Text\">\u{21A9}</a></p>"), german)
    }

    func testSmartPunctuationIsTheSitesChoice() throws {
        let folder = try site([
            "content/site.yml": "name: Sample\nbase_url: https://help.sample.test/\nsmart_punctuation: true\n",
            "content/articles/quoted.md": "---\ntitle: T\nsummary: S\n---\n\nThe \"timeout\" -- see https://example.com/a...b or run --dry-run.\n",
        ])
        XCTAssertTrue(build(folder).wroteOutput)
        let page = try folder.read("public/articles/quoted/index.html")
        XCTAssertTrue(
            page.contains("The \u{201C}timeout\u{201D} \u{2013} see <a href=\"https://example.com/a...b\">https://example.com/a...b</a> or run --dry-run."),
            page)
    }

    func testATranslatedArticleReplacesTheOriginalAndAMissingOneFallsBackWithANotice() throws {
        let folder = try germanSite()
        XCTAssertTrue(build(folder).wroteOutput)
        let german = try folder.read("public/de/articles/refused/index.html")
        XCTAssertTrue(german.contains("<h1>Verbindung abgelehnt</h1>"))
        XCTAssertTrue(german.contains("<div class=\"body\" lang=\"de\">"))
        XCTAssertTrue(german.contains("<a href=\"../../articles/refused/\">den Artikel</a>"), german)
        XCTAssertFalse(german.contains("class=\"notice\""))
        XCTAssertTrue(german.contains("<p class=\"markdown-alert-title\">Tipp</p>"), "an alert's title is in the article's language")

        let french = try folder.read("public/fr/articles/refused/index.html")
        XCTAssertTrue(french.contains("<html lang=\"fr\">"))
        XCTAssertTrue(french.contains("<p class=\"notice\" role=\"note\">Cette page n’est pas encore traduite.</p>"), french)
        XCTAssertTrue(french.contains("<h1>Connection refused</h1>") && french.contains("<div class=\"body\" lang=\"en\">"))

        XCTAssertTrue(try folder.read("public/de/index.html").contains("Verbindung abgelehnt"), "the German home lists the German title")
        let topic = try folder.read("public/tags/nginx/index.html")
        XCTAssertFalse(topic.contains("hreflang"), "a topic is the default language's only: no alternates that do not exist")
        XCTAssertFalse(folder.exists("public/articles/refused-de/index.html"), "a translation is no article of its own")
    }

    func testSitemapAndSearchIndexCoverEveryLanguage() throws {
        let folder = try germanSite()
        XCTAssertTrue(build(folder).wroteOutput)
        let sitemap = try folder.read("public/sitemap.xml")
        XCTAssertTrue(sitemap.contains("<loc>https://help.sample.test/de/articles/refused/</loc>"), sitemap)
        XCTAssertTrue(
            sitemap.contains("<xhtml:link rel=\"alternate\" hreflang=\"fr\" href=\"https://help.sample.test/fr/articles/refused/\"/>"), sitemap)
        let index = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("public/search/de").path)
            .map { try folder.read("public/search/de/" + $0) }.joined()
        XCTAssertTrue(index.contains("\"de/articles/refused/\""), "German results link into the German folder")
        XCTAssertTrue(index.contains("Verbindung abgelehnt"))
    }

    func testATranslationOfNoArticleIsALocatedError() throws {
        let folder = try germanSite([
            "content/articles/gone.de.md": "---\ntitle: Weg\nsummary: Nichts.\n---\n\nText.\n"
        ])
        assertFails(
            folder,
            with:
                "content/articles/gone.de.md:1:1: error: [article.orphan-translation] 'gone.de.md' translates 'articles/gone.md' into 'de', but there is no such article"
        )
    }
}
