import DetourTestSupport
import Foundation
import XCTest

/// `make bench`'s knowledge base shaped like the shipped one: it builds as cleanly as the
/// shipped content, with each set's links, log patterns and varied blocks its own.
final class ShippedShapeCorpusTests: XCTestCase {
    func testTheShippedShapeCorpusBuildsWithoutAWarning() throws {
        // Two whole sets of the shipped articles and the start of a third, whatever their number.
        let articles = Repository.content.appendingPathComponent("articles")
        let shipped = try FileManager.default.subpathsOfDirectory(atPath: articles.path)
            .filter { $0.hasSuffix(".md") && $0.firstMatch(of: #/\.[a-z]{2}\.md$/#) == nil }.count
        let folder = try SampleSite.synthetic(articles: 2 * shipped + 2, shape: "shipped")
        defer { folder.remove() }
        let build = try ProcessRunner.detour(["build"], in: folder.url)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertFalse((build.stdout + build.stderr).contains("warning:"), build.stdout + build.stderr)

        let original = try folder.read("content/articles/shipped/proxy/rate-limiting.md")
        let second = try folder.read("content/articles/set-2/proxy/rate-limiting-2.md")
        XCTAssertTrue(original.contains("zone=perip:10m"), original)
        XCTAssertTrue(second.contains("zone=perip:12m"), "set 2 varies the sizes in its blocks: \(second)")
        XCTAssertTrue(second.contains("](../cdn/5xx-and-seo-2.md)"), "set 2 links within itself: \(second)")
        let page = try folder.read("public/articles/rate-limiting-2/index.html")
        XCTAssertTrue(page.contains("href=\"../../articles/5xx-and-seo-2/\""), page)
        // The third set lacks most articles: its links go to the shipped ones.
        let third = try folder.read("content/articles/set-3/cdn/5xx-and-seo-3.md")
        XCTAssertTrue(third.contains("](../../shipped/proxy/rate-limiting.md)"), third)
    }
}
