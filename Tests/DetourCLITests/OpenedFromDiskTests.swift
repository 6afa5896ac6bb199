import DetourTestSupport
import Foundation
import XCTest

/// The help site opened from disk (`file://`), as the README tells a user to try: every link
/// on its pages, as Chromium has them after the page's scripts ran, leads to a file.
final class OpenedFromDiskTests: XCTestCase {
    func testEveryLinkLeadsToAFile() throws {
        let site = try SampleSite.shipped()
        defer { site.remove() }
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: site.url).status, 0)
        let publicFolder = site.url.appendingPathComponent("public")
        var checked = 0
        for page in ["index.html", "codes/502/index.html", "articles/upstream-timed-out/index.html", "tags/nginx/index.html", "search/index.html", "404.html"] {
            let file = publicFolder.appendingPathComponent(page)
            let dom = try Chromium.dumpDOM(file.absoluteString)
            XCTAssertTrue(dom.contains("</html>"), "\(page): \(dom.prefix(300))")
            let hrefs = Self.hrefs(in: dom)
            XCTAssertGreaterThan(hrefs.count, 3, page)
            for href in hrefs where !href.contains(":") && !href.hasPrefix("/") && !href.hasPrefix("#") {
                // Chromium serializes attributes with & escaped; the path part is what opens.
                let path = String(href.prefix { $0 != "#" && $0 != "?" })
                let target = URL(fileURLWithPath: path, relativeTo: file.deletingLastPathComponent()).standardizedFileURL
                var isFolder: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder)
                XCTAssertTrue(exists && !isFolder.boolValue, "\(page): '\(href)' opens \(target.path), \(exists ? "a folder listing" : "nothing")")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }

    /// The `href` of every `<a>`, in document order.
    static func hrefs(in html: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"<a\b[^>]*?\shref="([^"]*)""#)
        let range = NSRange(html.startIndex..., in: html)
        return pattern.matches(in: html, range: range).compactMap { Range($0.range(at: 1), in: html).map { String(html[$0]) } }
    }
}
