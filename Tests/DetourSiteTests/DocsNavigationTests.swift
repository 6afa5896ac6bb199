import DetourDiagnostics
import DetourTestSupport
import Foundation
import XCTest

/// The help site reads like a docs site: a home page with search first, paths for visitors and
/// operators and grouped codes; articles with breadcrumbs, their section beside them, the pages
/// before and after, and a link to edit their source.
final class DocsNavigationTests: SiteTestCase {
    private func article(_ title: String, audience: String = "operator") -> String {
        "---\ntitle: \(title)\nsummary: About \(title).\naudience: \(audience)\n---\n\n## Part\n\nText.\n"
    }

    private func docsSite() throws -> TemporaryFolder {
        try site([
            "content/site.yml": "name: Sample\nbase_url: https://help.sample.test/\nedit_url: https://git.example.com/help/edit/main/content\n",
            "content/articles/upstream/alpha.md": article("Alpha"),
            "content/articles/upstream/beta.md": article("Beta"),
            "content/articles/upstream/gamma.md": article("Gamma"),
            "content/articles/visitors/try.md": article("What to try", audience: "visitor"),
            "content/codes/521.yml": "status: 521\ntitle: Web Server Is Down\nsummary: The origin refused the CDN.\nemitted_by: [Cloudflare]\n",
            "content/codes/499.yml": "status: 499\ntitle: Client Closed Request\nsummary: The client went away.\nemitted_by: [nginx]\nerror_page: false\n",
        ])
    }

    func testArticlesShowWhereTheyAreAndWhatComesNext() throws {
        let folder = try docsSite()
        let report = build(folder)
        XCTAssertTrue(report.wroteOutput, DiagnosticFormat.text.render(report.diagnostics, toolVersion: "test"))
        let beta = try folder.read("public/articles/beta/index.html")
        XCTAssertTrue(
            beta.contains(
                "<nav class=\"breadcrumbs\" aria-label=\"Breadcrumb\"><ol><li><a href=\"../../\">Sample</a></li><li>Upstream</li><li aria-current=\"page\">Beta</li></ol></nav>"
            ), beta)
        XCTAssertTrue(beta.contains("<a href=\"../../articles/beta/\" aria-current=\"page\">Beta</a>"), "the section's list marks this page")
        XCTAssertTrue(beta.contains("<a class=\"previous\" rel=\"prev\" href=\"../../articles/alpha/\"><span>Previous</span> Alpha</a>"), beta)
        XCTAssertTrue(beta.contains("<a class=\"next\" rel=\"next\" href=\"../../articles/gamma/\"><span>Next</span> Gamma</a>"), beta)
        XCTAssertTrue(beta.contains("<a href=\"https://git.example.com/help/edit/main/content/articles/upstream/beta.md\">Edit this page</a>"), beta)
        XCTAssertTrue(beta.contains("<a class=\"anchor\""), "headings carry anchors")
        let alpha = try folder.read("public/articles/alpha/index.html")
        XCTAssertFalse(alpha.contains("rel=\"prev\""), "the first of its section has no previous page")
    }

    func testALongSectionShowsTheArticlesAroundThisOneAndLinksToTheRest() throws {
        var files: [String: String] = [:]
        for number in 10..<50 { files["content/articles/big/a\(number).md"] = article("Article \(number)") }
        let folder = try site(files)
        XCTAssertTrue(build(folder).wroteOutput)
        let page = try folder.read("public/articles/a30/index.html")
        let sidebar = try XCTUnwrap(page.range(of: #"(?s)<nav class="sidebar".*?</nav>"#, options: .regularExpression).map { String(page[$0]) })
        XCTAssertEqual(sidebar.components(separatedBy: "<li>").count - 1, 25, "25 of the section's 40 articles")
        XCTAssertTrue(sidebar.contains("aria-current=\"page\">Article 30</a>") && sidebar.contains("Article 18") && sidebar.contains("Article 42"), sidebar)
        XCTAssertTrue(sidebar.contains("<a href=\"../../#section-big\">Big (40)</a>"), sidebar)
    }

    func testTheHomePageLeadsWithSearchThenPathsThenGroupedCodes() throws {
        let folder = try docsSite()
        XCTAssertTrue(build(folder).wroteOutput)
        let home = try folder.read("public/index.html")
        let order = [
            "class=\"hero-search\"", "<h2>For visitors</h2>", "<h2>For site operators</h2>", "<h3 id=\"codes_5xx\">", "<h3 id=\"codes_cdn\">",
            "<h3 id=\"codes_nginx\">", "<h3 id=\"section-upstream\">",
        ]
        let positions = order.map { home.range(of: $0)?.lowerBound }
        XCTAssertFalse(positions.contains(nil), "\(zip(order, positions).filter { $0.1 == nil }.map(\.0))")
        XCTAssertEqual(positions.compactMap { $0 }, positions.compactMap { $0 }.sorted(), "search first, then the paths, then the codes and sections")
        let visitors = try XCTUnwrap(home.range(of: "<h2>For visitors</h2>").map { String(home[$0.upperBound...].prefix(600)) })
        XCTAssertTrue(visitors.contains("What to try") && !visitors.contains("Alpha"), "the visitors' path lists visitor articles only")
        let cdn = try XCTUnwrap(home.range(of: "<h3 id=\"codes_cdn\">").map { String(home[$0.upperBound...].prefix(400)) })
        XCTAssertTrue(cdn.contains("521") && !cdn.contains("502"), cdn)
    }

    /// A status's former names are on its page and find it in search, as its title does.
    func testAFormerNameIsShownAndSearchedAsTheTitle() throws {
        let folder = try site([
            "content/codes/413.yml": "status: 413\ntitle: Content Too Large\nsummary: Too much.\nadvice: Send less.\nformer_names: [Request Entity Too Large]\n"
        ])
        XCTAssertTrue(build(folder).wroteOutput)
        let page = try folder.read("public/codes/413/index.html")
        XCTAssertTrue(page.contains(#"Formerly: <span class="chip">Request Entity Too Large</span>"#), page)
        let index = try folder.read("public/search/en/index.js")
        XCTAssertTrue(index.contains(#""entiti":["#), "the former name is indexed (stemmed): \(index.prefix(400))")
    }
}
