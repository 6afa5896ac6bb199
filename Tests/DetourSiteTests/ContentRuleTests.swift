import DetourTestSupport
import Foundation
import XCTest

/// One test per content rule: bad input in, the exact located message out.
final class ContentRuleTests: SiteTestCase {
    func testSampleSiteIsClean() throws {
        let folder = try site()
        XCTAssertEqual(diagnostics(folder), "")
    }

    func testYAMLSyntaxError() throws {
        let folder = try site(["content/codes/502.yml": "status: 502\ntitle: [Bad\nsummary: x\n"])
        assertFails(folder, with: "content/codes/502.yml:3:8: error: [yaml.syntax] invalid YAML: did not find expected ',' or ']'")
    }

    func testYAMLDuplicateKey() throws {
        let folder = try site(["content/codes/502.yml": "status: 502\ntitle: A\ntitle: B\nsummary: x\nadvice: y\n"])
        let text = diagnostics(folder)
        XCTAssertTrue(text.contains("content/codes/502.yml:"), text)
        XCTAssertTrue(text.contains("error: [yaml.duplicate-key] key 'title' appears more than once in this mapping"), text)
    }

    func testWrongType() throws {
        let folder = try site(["content/codes/502.yml": "status: 502\ntitle: Bad Gateway\nsummary: x\nadvice: y\nretry_after: soon\n"])
        assertFails(folder, with: "content/codes/502.yml:5:14: error: [content.type-mismatch] 'retry_after' must be a whole number")
    }

    func testListWhereTextExpected() throws {
        let folder = try site(["content/articles/refused.md": "---\ntitle: [a, b]\nsummary: s\n---\nbody\n"])
        assertFails(folder, with: "content/articles/refused.md:2:8: error: [content.type-mismatch] 'title' must be text")
    }

    func testMissingRequiredField() throws {
        let folder = try site(["content/codes/502.yml": "status: 502\nsummary: x\nadvice: y\n"])
        assertFails(folder, with: "content/codes/502.yml:1:1: error: [content.missing-field] error code definition is missing required field 'title'")
    }

    func testEmptyRequiredField() throws {
        let folder = try site(["content/articles/refused.md": "---\ntitle:\nsummary: s\n---\nbody\n"])
        assertFails(folder, with: "content/articles/refused.md:2:7: error: [content.missing-field] required field 'title' must not be empty")
    }

    func testUnknownFieldSuggestsTheKnownOne() throws {
        let folder = try site(["content/articles/refused.md": "---\ntitel: Refused\nsummary: s\n---\nbody\n"])
        assertFails(
            folder, with: "content/articles/refused.md:2:1: error: [content.unknown-field] unknown field 'titel' in article front matter; did you mean 'title'?"
        )
    }

    func testUnknownNestedField() throws {
        let folder = try site(["content/site.yml": "name: S\nbase_url: https://h.test/\ncolors:\n  light:\n    accnt: \"#fff\"\n"])
        assertFails(folder, with: "content/site.yml:5:5: error: [content.unknown-field] unknown field 'accnt' in light colors; did you mean 'accent'?")
    }

    func testDuplicateStatus() throws {
        let folder = try site(["content/codes/bad-gateway.yml": "status: 502\ntitle: Again\nsummary: x\nadvice: y\n"])
        let text = diagnostics(folder)
        XCTAssertTrue(
            text.contains(
                "content/codes/bad-gateway.yml:1:9: error: [code.duplicate-status] status 502 is already defined\n  content/codes/502.yml:1:9: note: first defined here"
            ), text)
    }

    func testStatusOutsideErrorRange() throws {
        let folder = try site(["content/codes/302.yml": "status: 302\ntitle: Found\nsummary: x\n"])
        assertFails(folder, with: "content/codes/302.yml:1:9: error: [content.out-of-range] 'status' must be between 400 and 599, not 302")
    }

    func testDuplicateSlug() throws {
        let folder = try site(["content/articles/other/refused.md": "---\ntitle: Another\nsummary: s\n---\nbody\n"])
        let text = diagnostics(folder)
        XCTAssertTrue(
            text.contains(
                "content/articles/refused.md:1:1: error: [article.duplicate-slug] another article already uses the URL name 'refused'\n  content/articles/other/refused.md:1:1: note: first used here"
            ), text)
    }

    func testRelatedArticleMissing() throws {
        let folder = try site(["content/codes/502.yml": "status: 502\ntitle: Bad Gateway\nsummary: x\nadvice: y\nrelated: [refusd]\n"])
        assertFails(
            folder, with: "content/codes/502.yml:5:11: error: [code.unknown-related-article] related article 'refusd' does not exist; did you mean 'refused'?")
    }

    func testArticleNamesUndefinedCode() throws {
        let folder = try site(["content/articles/refused.md": "---\ntitle: R\nsummary: s\ncodes: [502, 418]\n---\nbody\n"])
        assertFails(folder, with: "content/articles/refused.md:4:14: error: [article.unknown-code] code 418 has no definition in codes/")
    }

    /// A `.md` link to no article is what text pasted from a repository has for the repository's
    /// other files: a warning (an error under --strict), the link kept as written, as MkDocs does.
    func testMarkdownLinkToMissingArticleIsAWarningAndFailsUnderStrict() throws {
        let folder = try site([
            "content/articles/refused.md": "---\ntitle: R\nsummary: s\n---\n\nRead [this](../gone.md#part) first, and [how to help](CONTRIBUTING.md).\n"
        ])
        XCTAssertEqual(
            diagnostics(folder),
            """
            content/articles/refused.md:6:13: warning: [markdown.broken-link] link '../gone.md#part' points to an article that does not exist
            content/articles/refused.md:6:55: warning: [markdown.broken-link] link 'CONTRIBUTING.md' points to an article that does not exist
            0 errors, 2 warnings

            """)
        let page = try folder.read("public/articles/refused/index.html")
        XCTAssertTrue(page.contains("<a href=\"../gone.md#part\">this</a>") && page.contains("<a href=\"CONTRIBUTING.md\">how to help</a>"), page)
        XCTAssertFalse(build(folder, output: "strict", strict: true).wroteOutput)
    }

    /// A misspelt article's name is suggested as the link would be written from where it is.
    func testMarkdownLinkToAMisspeltArticleSuggestsItRelativeToTheLink() throws {
        let folder = try site([
            "content/articles/proxy/pasted.md":
                "---\ntitle: R\nsummary: s\n---\n\nSee [slow](../upstream/upstrem-timeout.md), [fast](fats.md), [help](../../CONTRIBUTING.md).\n",
            "content/articles/upstream/upstream-timeout.md": "---\ntitle: U\nsummary: s\n---\n\nbody\n",
            "content/articles/proxy/fast.md": "---\ntitle: F\nsummary: s\n---\n\nbody\n",
            "content/articles/proxy/configuring.md": "---\ntitle: C\nsummary: s\n---\n\nbody\n",
        ])
        XCTAssertEqual(
            diagnostics(folder),
            """
            content/articles/proxy/pasted.md:6:12: warning: [markdown.broken-link] link '../upstream/upstrem-timeout.md' points to an article that does not exist; did you mean '../upstream/upstream-timeout.md'?
            content/articles/proxy/pasted.md:6:52: warning: [markdown.broken-link] link 'fats.md' points to an article that does not exist; did you mean 'fast.md'?
            content/articles/proxy/pasted.md:6:69: warning: [markdown.broken-link] link '../../CONTRIBUTING.md' points to an article that does not exist
            0 errors, 3 warnings

            """)
    }

    /// Files saved with Windows line endings: their broken links are located as in the same
    /// files with Unix ones, an article's and one in a code's indented advice.
    func testMarkdownLinksInCRLFFilesAreLocatedAsInLFFiles() throws {
        let folder = try site([
            "content/articles/refused.md": "---\r\ntitle: R\r\nsummary: s\r\n---\r\n\r\nRead [this](../gone.md#part) first.\r\n",
            "content/codes/502.yml": "status: 502\r\ntitle: Bad Gateway\r\nsummary: x\r\nadvice: |\r\n  First line.\r\n  See [help](/articles/nope/).\r\n",
        ])
        let found = diagnostics(folder)
        for expected in [
            "content/articles/refused.md:6:13: warning: [markdown.broken-link] link '../gone.md#part' points to an article that does not exist",
            "content/codes/502.yml:6:14: error: [markdown.broken-link] link '/articles/nope/' points to article 'nope', which does not exist",
        ] {
            XCTAssertTrue(found.split(separator: "\n").contains { $0 == expected }, "expected line:\n\(expected)\ngot:\n\(found)")
        }
    }

    func testMarkdownLinkInAdviceIsLocatedInTheYAMLFile() throws {
        let folder = try site([
            "content/codes/502.yml": "status: 502\ntitle: Bad Gateway\nsummary: x\nadvice: |\n  First line.\n  See [help](/articles/nope/).\n"
        ])
        assertFails(
            folder, with: "content/codes/502.yml:6:14: error: [markdown.broken-link] link '/articles/nope/' points to article 'nope', which does not exist")
    }

    func testLinksToMissingHeadingsAreReportedWhereTheyAre() throws {
        let folder = try site([
            "content/articles/refused.md":
                "---\ntitle: R\nsummary: s\n---\n\n## What to check\n\n## Fixing it\n\nSee [fix](#fixing-it), [here](#not-here)\nand [x](other.md#what-to-chek), [y](/articles/other/#nope).\nBack to [the top](#top), [*nginx*](## \"a tooltip\").\n",
            "content/articles/other.md": "---\ntitle: Other\nsummary: s\n---\n\n## What to check\n\nBack to [refused](refused.md#what-to-check).\n",
            "content/codes/502.yml":
                "status: 502\ntitle: Bad Gateway\nsummary: x\nadvice: |\n  Read [the fix](/articles/refused/#fixing-it) or [this](/articles/refused/#gone).\n",
        ])
        let text = diagnostics(folder)
        XCTAssertEqual(
            text,
            """
            content/articles/refused.md:10:31: warning: [markdown.broken-link] link '#not-here' points to heading '#not-here', which article 'refused' does not have
            content/articles/refused.md:11:9: error: [markdown.broken-link] link 'other.md#what-to-chek' points to heading '#what-to-chek', which article 'other' does not have; did you mean '#what-to-check'?
            content/articles/refused.md:11:37: error: [markdown.broken-link] link '/articles/other/#nope' points to heading '#nope', which article 'other' does not have
            content/codes/502.yml:5:58: error: [markdown.broken-link] link '/articles/refused/#gone' points to heading '#gone', which article 'refused' does not have
            3 errors, 1 warning

            """)
    }

    func testABrokenLinkWithinItsOwnPageBuildsWithAWarningAndFailsUnderStrict() throws {
        let folder = try site(["content/articles/pasted.md": "---\ntitle: P\nsummary: s\n---\n\n## Install\n\nSee [installing](#instal).\n"])
        XCTAssertEqual(
            diagnostics(folder),
            """
            content/articles/pasted.md:8:18: warning: [markdown.broken-link] link '#instal' points to heading '#instal', which article 'pasted' does not have; did you mean '#install'?
            0 errors, 1 warning

            """)
        XCTAssertTrue(folder.exists("public/articles/pasted/index.html"))
        XCTAssertFalse(build(folder, output: "strict", strict: true).wroteOutput)
    }

    func testLowContrastIsAWarningAtTheColour() throws {
        let folder = try site([
            "content/site.yml":
                "name: S\nbase_url: https://h.test/\ncolors:\n  light:\n    muted: \"#a0a0a0\"\n  dark:\n    background: \"#ffffff\"\n    text: \"#777777b0\"\n"
        ])
        let text = diagnostics(folder)
        XCTAssertEqual(
            text,
            """
            content/site.yml:5:12: warning: [site.low-contrast] light 'muted' #a0a0a0 on background #ffffff has a contrast of 2.61:1; text needs at least 4.5:1 (WCAG AA) to be readable
            content/site.yml:7:17: warning: [site.low-contrast] dark 'accent' #6ea8ff on background #ffffff has a contrast of 2.41:1; text needs at least 4.5:1 (WCAG AA) to be readable
            content/site.yml:7:17: warning: [site.low-contrast] dark 'muted' #9aa4ae on background #ffffff has a contrast of 2.53:1; text needs at least 4.5:1 (WCAG AA) to be readable
            content/site.yml:8:11: warning: [site.low-contrast] dark 'text' #777777b0 on background #ffffff has a contrast of 2.58:1; text needs at least 4.5:1 (WCAG AA) to be readable
            0 errors, 4 warnings

            """)
    }

    func testLogPatternsDiagnoseCannotUseAreWarnings() throws {
        let folder = try site([
            "content/articles/timeouts.md":
                "---\ntitle: Timeouts\nsummary: s\nlog_patterns:\n  - \"while reading response header from upstream\"\n  - \"127.0.0.1:8080 504\"\n---\nbody\n",
            "content/articles/header.md": "---\ntitle: Header\nsummary: s\nlog_patterns:\n  - \"while reading response header from upstream\"\n---\nbody\n",
        ])
        let text = diagnostics(folder)
        XCTAssertEqual(
            text,
            """
            content/articles/timeouts.md:5:5: warning: [article.log-pattern-shadowed] log pattern 'while reading response header from upstream' is explained by article 'header' (its pattern 'while reading response header from upstream' says as much or more): detour diagnose counts such lines there
              content/articles/header.md:5:5: note: that pattern is here
              note: fix: make one of the two patterns longer, with the words that tell the problems apart
            content/articles/timeouts.md:6:5: warning: [article.log-pattern-unmatchable] log pattern '127.0.0.1:8080 504' is only numbers, addresses and paths, which stand for any: it matches no line
              note: fix: keep the words of the log line around them
            0 errors, 2 warnings

            """)
    }

    func testConfirmCommandsNameKnownServersAndPlaceholdersOnly() throws {
        let folder = try site([
            "content/articles/refused.md":
                "---\ntitle: Refused\nsummary: s\nconfirm:\n  nginx: curl -w '%{http_code}' http://{upstream}/\n  ngnix: nginx -t\n  apache: ss -lnpt 'sport = :{prot}'\n---\nbody\n",
            "content/articles/empty.md": "---\ntitle: Empty\nsummary: s\nconfirm: [curl]\n---\nbody\n",
        ])
        let text = diagnostics(folder)
        XCTAssertEqual(
            text,
            """
            content/articles/empty.md:4:10: error: [content.type-mismatch] 'confirm' must be text, or a mapping of names to text
            content/articles/refused.md:6:3: error: [content.invalid-value] 'confirm' names commands by server: nginx, apache, caddy, haproxy, varnish, php-fpm, gunicorn, uwsgi, not 'ngnix'
            content/articles/refused.md:7:11: error: [content.invalid-value] 'confirm' fills in {upstream}, {host}, {port}, not '{prot}'
            3 errors, 0 warnings

            """)
    }

    func testMissingFrontMatter() throws {
        let folder = try site(["content/articles/refused.md": "# Just Markdown\n"])
        assertFails(
            folder,
            with:
                "content/articles/refused.md:1:1: error: [article.missing-front-matter] article must start with YAML front matter between '---' lines (title, summary, …)"
        )
    }

    func testUnterminatedFrontMatter() throws {
        let folder = try site(["content/articles/refused.md": "---\ntitle: R\nsummary: s\n"])
        assertFails(
            folder,
            with: "content/articles/refused.md:1:1: error: [article.unterminated-front-matter] front matter opened here is never closed with a '---' line")
    }

    func testInvalidExplicitSlug() throws {
        let folder = try site(["content/articles/refused.md": "---\ntitle: R\nsummary: s\nslug: Not A Slug\n---\nbody\n"])
        assertFails(
            folder,
            with: "content/articles/refused.md:4:7: error: [article.invalid-slug] 'slug' must use lowercase letters, digits and hyphens, e.g. 'not-a-slug'")
    }

    func testInvalidDateAndAudience() throws {
        let folder = try site(["content/articles/refused.md": "---\ntitle: R\nsummary: s\nupdated: 2026-02-30\naudience: robots\n---\nbody\n"])
        let text = diagnostics(folder)
        XCTAssertTrue(
            text.contains("content/articles/refused.md:4:10: error: [content.invalid-value] 'updated' must be a date written YYYY-MM-DD, not '2026-02-30'"),
            text)
        XCTAssertTrue(
            text.contains(
                "content/articles/refused.md:5:11: error: [content.invalid-value] 'audience' must be one of visitor, operator, developer, not 'robots'"), text)
    }

    func testTagWithoutLettersOrDigits() throws {
        let folder = try site(["content/articles/refused.md": "---\ntitle: R\nsummary: s\ntags: [nginx, \"!!!\"]\n---\nbody\n"])
        assertFails(folder, with: "content/articles/refused.md:4:15: error: [content.invalid-value] tag '!!!' needs a letter or digit to name its page")
    }

    func testNonUTF8File() throws {
        let folder = try site()
        try folder.writeData("content/articles/latin1.md", Data("---\ntitle: Caf".utf8) + Data([0xE9]) + Data("\nsummary: s\n---\n".utf8))
        assertFails(folder, with: "content/articles/latin1.md:2:11: error: [file.not-utf8] file is not valid UTF-8 text")
    }

    func testUnreadableFile() throws {
        let folder = try site()
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("content/articles/dangling.md").path, withDestinationPath: "/nonexistent/file.md")
        assertFails(folder, with: "content/articles/dangling.md:1:1: error: [file.unreadable] cannot read file: No such file or directory")
    }

    func testLinkToAFileOutsideContentIsNotRead() throws {
        let folder = try site(["secret.md": "---\ntitle: Secret\nsummary: s\n---\ntop secret\n"])
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("content/articles/leak.md").path, withDestinationPath: "../../secret.md")
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent("content/articles/alias.md").path, withDestinationPath: "refused.md")
        let text = diagnostics(folder)
        XCTAssertTrue(
            text.contains(
                "content/articles/leak.md:1:1: error: [file.path-escape] 'articles/leak.md' links to a file outside content/; copy the file in instead\n"), text
        )
        XCTAssertFalse(text.contains("alias.md:1:1: error: [file.path-escape]"), "a link inside content/ is fine")
        XCTAssertFalse(folder.exists("public/articles/leak/index.html"))
    }

    func testMissingSiteConfig() throws {
        let folder = try site(["content/site.yml": ""])
        assertFails(
            folder,
            with:
                "content/site.yml:1:1: error: [content.missing-file] site configuration 'content/site.yml' does not exist; it names the brand (name, base_url, …)"
        )
    }

    func testMissingContentFolder() throws {
        let folder = try site()
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("content"))
        assertFails(folder, with: "content:1:1: error: [content.missing-folder] content folder 'content' does not exist")
    }

    func testAllProblemsAreReportedInOneRun() throws {
        let folder = try site([
            "content/codes/502.yml": "status: 502\ntitel: Bad\nsummary: x\nadvice: y\n",
            "content/articles/refused.md": "---\ntitle: R\nsummary: s\ncodes: [599]\n---\nSee [x](/articles/y/).\n",
            "templates/index.mustache": "{{> partials/nope}}",
        ])
        let text = diagnostics(folder)
        for rule in ["content.missing-field", "content.unknown-field", "article.unknown-code", "markdown.broken-link", "template.missing-partial"] {
            XCTAssertTrue(text.contains("[\(rule)]"), "missing \(rule) in:\n\(text)")
        }
        XCTAssertTrue(text.hasSuffix("5 errors, 0 warnings\n"), text)
        XCTAssertFalse(text.contains("did you mean 'partials/head'"), "a different word is no typo:\n\(text)")
    }
}
