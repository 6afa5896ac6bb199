import DetourDiagnostics
import XCTest

@testable import DetourContent

final class LinkResolverTests: XCTestCase {
    private func article(_ slug: String, _ path: String) -> Article {
        Article(
            slug: slug, title: slug, summary: "", codes: [], tags: [], audience: .operator, updated: nil, logPatterns: [],
            draft: false, body: "", bodyStartLine: 1, source: SourceLocation(path: path), slugLocation: SourceLocation(path: path),
            relativePath: path)
    }

    private var resolver: LinkResolver {
        LinkResolver(articles: [article("fpm", "articles/php/fpm.md"), article("refused", "articles/refused.md")], statuses: [502])
    }

    func testMarkdownFileLinksResolveRelativeToTheLinkingFile() {
        XCTAssertEqual(resolver.resolve("../refused.md#ports", fromPath: "articles/php/fpm.md", root: "../../"), .rewrite("../../articles/refused/#ports"))
        XCTAssertEqual(resolver.resolve("php/fpm.md", fromPath: "articles/refused.md", root: "https://h/"), .rewrite("https://h/articles/fpm/"))
        XCTAssertEqual(resolver.resolve("../articles/php/fpm.md", fromPath: "codes/502.yml", root: ""), .rewrite("articles/fpm/"))
    }

    func testSiteAbsolutePathsAreCheckedAndMadeRelative() {
        XCTAssertEqual(resolver.resolve("/codes/502/", fromPath: "articles/refused.md", root: "../../"), .rewrite("../../codes/502/"))
        XCTAssertEqual(resolver.resolve("/articles/fpm", fromPath: "articles/refused.md", root: "../../"), .rewrite("../../articles/fpm/"))
        XCTAssertEqual(resolver.resolve("/codes/503/", fromPath: "a.md", root: ""), .broken("link '/codes/503/' points to code '503', which has no definition"))
        XCTAssertEqual(
            resolver.resolve("/articles/nope/", fromPath: "a.md", root: ""), .broken("link '/articles/nope/' points to article 'nope', which does not exist"))
    }

    /// Missing `.md` files, those that would lie outside the content folder too, are files the
    /// site does not hold (a repository's, for text pasted from one), not the site's own paths.
    func testMissingAndEscapingMarkdownFilesAreNotInTheSite() {
        XCTAssertEqual(
            resolver.resolve("gone.md", fromPath: "articles/refused.md", root: ""), .notInSite("link 'gone.md' points to an article that does not exist"))
        XCTAssertEqual(
            resolver.resolve("../../../etc/passwd.md", fromPath: "articles/refused.md", root: ""),
            .notInSite("link '../../../etc/passwd.md' points to an article that does not exist"))
    }

    func testAMisspeltArticleIsSuggestedAsTheLinkWouldBeWritten() {
        XCTAssertEqual(
            resolver.resolve("php/fmp.md", fromPath: "articles/refused.md", root: ""),
            .notInSite("link 'php/fmp.md' points to an article that does not exist; did you mean 'php/fpm.md'?"))
        XCTAssertEqual(
            resolver.resolve("../articles/php/fmp.md#pools", fromPath: "codes/502.yml", root: ""),
            .notInSite("link '../articles/php/fmp.md#pools' points to an article that does not exist; did you mean '../articles/php/fpm.md'?"))
        XCTAssertEqual(
            resolver.resolve("../refused.md", fromPath: "articles/refused.md", root: ""),
            .notInSite("link '../refused.md' points to an article that does not exist; did you mean 'refused.md'?"))
    }

    func testExternalAndFragmentLinksAreKept() {
        for link in ["https://nginx.org/en/docs/", "mailto:a@b.c", "#section", "//cdn.example/x", "/status/", "image.png"] {
            XCTAssertEqual(resolver.resolve(link, fromPath: "articles/refused.md", root: "../../"), .keep, link)
        }
    }
}
