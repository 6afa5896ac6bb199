import DetourDiagnostics
import DetourSite
import DetourTestSupport
import Foundation
import XCTest

/// The knowledge base in the repository builds cleanly and its error pages keep their promises.
final class ShippedContentTests: XCTestCase {
    private var output: TemporaryFolder!

    override func setUpWithError() throws {
        output = try TemporaryFolder()
        var options = BuildOptions(base: Repository.root)
        options.output = output.url.appendingPathComponent("public")
        options.outputDisplay = "public"
        options.strict = true
        let report = SiteBuilder.build(options)
        XCTAssertEqual(DiagnosticFormat.text.render(report.diagnostics, toolVersion: "test"), "")
        XCTAssertTrue(report.wroteOutput)
    }

    override func tearDown() {
        output.remove()
    }

    func testStarterCodesAndArticlesArePublished() throws {
        for status in [500, 502, 503, 504] {
            XCTAssertTrue(output.exists("public/errors/\(status).html"), "\(status)")
            XCTAssertTrue(output.exists("public/codes/\(status)/index.html"), "\(status)")
        }
        let articles = try FileManager.default.contentsOfDirectory(atPath: output.url.appendingPathComponent("public/articles").path)
        XCTAssertGreaterThanOrEqual(articles.count, 6)
        XCTAssertTrue(output.exists("public/index.html"))
        XCTAssertTrue(output.exists("public/sitemap.xml"))
        XCTAssertTrue(output.exists("public/style.css"))
    }

    func testErrorPagesAreSmallSelfContainedAndNotIndexed() throws {
        for status in [500, 502, 503, 504] {
            let page = try output.read("public/errors/\(status).html")
            XCTAssertLessThanOrEqual(page.utf8.count, 8192, "\(status)")
            XCTAssertTrue(page.contains("<meta name=\"robots\" content=\"noindex,nofollow\">"))
            XCTAssertTrue(page.contains("<style>"), "CSS must be inline")
            XCTAssertTrue(page.contains("<svg"), "logo must be inline")
            XCTAssertTrue(page.contains(">Error \(status)<"))
            XCTAssertTrue(page.contains("href=\"https://help.example.com/codes/\(status)/\""))
            for external in ["<script", "src=", "@import", "url(", "<img"] {
                XCTAssertFalse(page.contains(external), "\(status) page must make no request: found \(external)")
            }
            // Its one link is its own icon, inline, so the browser asks the dead site for no /favicon.ico.
            XCTAssertEqual(page.components(separatedBy: "<link").count, 2, "\(status)")
            XCTAssertTrue(page.contains("<link rel=\"icon\" href=\"data:image/svg+xml,"), "\(status)")
        }
    }

    func testEveryArticleNamesLogLinesAndSettings() throws {
        let index = try output.read("public/index.html")
        for slug in [
            "upstream-connection-refused", "upstream-timed-out", "php-fpm-socket-unavailable", "upstream-header-too-big",
            "health-checks-mark-all-backends-down", "rate-limiting",
        ] {
            let page = try output.read("public/articles/\(slug)/index.html")
            XCTAssertTrue(page.contains("Log lines you may see"), slug)
            XCTAssertTrue(page.contains("<pre><code>"), slug)
            XCTAssertTrue(index.contains("href=\"articles/\(slug)/\""), slug)
        }
        // A CDN's own error pages leave no line in the origin's logs: the article claims none.
        let cdn = try output.read("public/articles/cdn-cannot-reach-origin/index.html")
        XCTAssertFalse(cdn.contains("Log lines you may see"))
        XCTAssertTrue(index.contains("href=\"articles/cdn-cannot-reach-origin/\""))
    }

    func testInternalLinksPointAtPagesThatExist() throws {
        let root = output.url.appendingPathComponent("public")
        let pages = output.snapshot("public").keys.filter { $0.hasSuffix(".html") && !$0.hasPrefix("errors/") }
        XCTAssertFalse(pages.isEmpty)
        for page in pages {
            let html = try output.read("public/" + page)
            let folder = root.appendingPathComponent(page).deletingLastPathComponent()
            for match in html.matches(of: /href="([^"#:]+)(#[^"]*)?"/) {
                let target = folder.appendingPathComponent(String(match.1)).standardizedFileURL
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory)
                let file = isDirectory.boolValue ? target.appendingPathComponent("index.html") : target
                XCTAssertTrue(exists && FileManager.default.fileExists(atPath: file.path), "\(page) links to missing \(match.1)")
            }
        }
    }
}
