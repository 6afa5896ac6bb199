import DetourTestSupport
import Foundation
import XCTest

/// The shipped help site as Chromium paints it, on a desktop (1200 px) and a phone (375 px), in
/// light and dark mode: nothing runs off the screen (tables and code scroll inside their own
/// box), text keeps 4.5:1 contrast on what is painted behind it, nothing but the style sheet
/// and `search.js` is loaded, and each page is photographed (`SCREENSHOTS=<folder>` keeps the
/// pictures).
final class HelpSiteBrowserTests: XCTestCase {
    private var site: TemporaryFolder!
    private var servers: [NginxServer] = []

    /// The home page, an article with a table, a German code page, a translated article, a
    /// topic, the search page and the 404 page: every kind of help page.
    static let pages = [
        "/", "/articles/upstream-timed-out/", "/de/codes/502/", "/ja/articles/what-you-can-try/", "/tags/apache/", "/search/?q=502", "/404.html",
    ]

    override func setUpWithError() throws {
        site = try SampleSite.shipped()
    }

    override func tearDown() {
        servers.forEach { $0.stop() }
        site.remove()
    }

    func testPagesFitPhonesAndDesktopsInBothSchemes() throws {
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: site.url).status, 0)
        let probe = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("HelpSiteProbe/probe.js"), encoding: .utf8)
        let port = LoopbackPort.free()
        let server = try NginxServer(
            config: NginxServer.httpBlock(
                """
                server {
                    listen 127.0.0.1:\(port);
                    root \(site.path)/public;
                    types { text/html html; text/css css; text/javascript js; }
                    location /probe/ { root \(site.path); }
                }
                """))
        servers.append(server)
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), server.errorLog)
        let pictures = try ProcessInfo.processInfo.environment["SCREENSHOTS"].map { URL(fileURLWithPath: $0) } ?? TemporaryFolder().url
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)

        for width in [1200, 375] {
            try site.write([
                "probe/\(width).html": """
                <!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0"><pre id="out">waiting</pre>
                <iframe id="page" style="width:\(width)px;height:900px;border:0"></iframe>
                <script>var PAGES = \(Self.pages.description);</script><script src="probe.js"></script></body></html>
                """,
                "probe/probe.js": probe,
            ])
            for (scheme, arguments) in [("light", [String]()), ("dark", ["--force-dark-mode"])] {
                let dom = try Chromium.dumpDOM(
                    "http://127.0.0.1:\(port)/probe/\(width).html", arguments: arguments + ["--window-size=\(width + 100),1000", "--virtual-time-budget=20000"])
                let report = try XCTUnwrap(Self.report(in: dom), String(dom.suffix(1500)))
                for page in Self.pages {
                    let found = try XCTUnwrap(report[page] as? [String: Any], "\(page): \(report)")
                    let context = "\(page) at \(width) px, \(scheme)"
                    XCTAssertEqual(found["dark"] as? Bool, scheme == "dark", context)
                    XCTAssertEqual(found["overflow"] as? Int, 0, "\(context): the page scrolls sideways: \(found["wide"] ?? "")")
                    XCTAssertEqual(found["wide"] as? [String], [], "\(context): runs off the screen")
                    XCTAssertEqual(found["faint"] as? [String], [], "\(context): text under 4.5:1")
                    // The search page loads the index it searches, through search.js.
                    let resources = (found["resources"] as? [String] ?? []).filter { page != "/search/?q=502" || !$0.hasSuffix(".js") || $0 == "search.js" }
                    XCTAssertEqual(resources, ["search.js", "style.css"], "\(context): a page needs the style sheet and search.js, nothing more")
                }
                XCTAssertEqual((report["/articles/upstream-timed-out/"] as? [String: Any])?["tables"] as? Int, 1, "the article's table is a table")
                for page in Self.pages {
                    let slug = page.split(whereSeparator: { "/?=.".contains($0) }).joined(separator: "-")
                    let name = "\(page == "/" ? "home" : slug)-\(width)-\(scheme).png"
                    let file = pictures.appendingPathComponent(name)
                    try? FileManager.default.removeItem(at: file)
                    _ = try ProcessRunner.run(
                        try RequiredTool.find("chromium"),
                        [
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                            "--user-data-dir=\(pictures.path)/profile", "--window-size=\(width),1400", "--screenshot=\(file.path)",
                        ] + arguments
                            + ["http://127.0.0.1:\(port)\(page)"])
                    XCTAssertEqual(Self.pngWidth(file), width, "\(name) is a \(width) px wide picture")
                }
            }
        }
    }

    private static func report(in dom: String) -> [String: Any]? {
        guard let range = dom.range(of: #"(?s)<pre id="out">(.*?)</pre>"#, options: .regularExpression) else { return nil }
        let json = dom[range].dropFirst(#"<pre id="out">"#.count).dropLast("</pre>".count)
        return try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    }

    /// The width in a PNG's header.
    private static func pngWidth(_ file: URL) -> Int? {
        guard let data = try? Data(contentsOf: file), data.count > 24 else { return nil }
        return data[16..<20].reduce(0) { $0 << 8 | Int($1) }
    }
}
