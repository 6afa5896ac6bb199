import DetourTestSupport
import Foundation
import XCTest

/// What a CI build step or a staging preview needs, as Hugo users know it: another base URL,
/// drafts published, robots.txt, canonical links, and a 404 page a static host serves.
final class StagingBuildTests: XCTestCase {
    private var project: TemporaryFolder!

    override func setUpWithError() throws {
        project = try TemporaryFolder()
        try FileManager.default.copyItem(at: Repository.content, to: project.url.appendingPathComponent("content"))
        try project.write([
            "content/articles/coming-soon.md":
                "---\ntitle: \"Coming soon\"\nsummary: Not published yet.\ncodes: [502]\naudience: operator\ndraft: true\n---\n\nSoon.\n"
        ])
    }

    override func tearDown() {
        project.remove()
    }

    func testBaseURLAndDraftsForAStagingBuild() throws {
        let plain = try ProcessRunner.detour(["build", "--quiet"], in: project.url)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertFalse(project.exists("public/articles/coming-soon/index.html"), "drafts stay out by default")
        XCTAssertTrue(try project.read("public/robots.txt").contains("Sitemap: https://help.example.com/sitemap.xml"))

        let staging = try ProcessRunner.detour(["build", "--quiet", "--base-url", "https://staging.example.org/help", "--drafts"], in: project.url)
        XCTAssertEqual(staging.status, 0, staging.stderr)
        XCTAssertTrue(project.exists("public/articles/coming-soon/index.html"))
        XCTAssertTrue(try project.read("public/robots.txt").contains("Sitemap: https://staging.example.org/help/sitemap.xml"))
        XCTAssertTrue(try project.read("public/sitemap.xml").contains("<loc>https://staging.example.org/help/articles/coming-soon/</loc>"))
        XCTAssertTrue(
            try project.read("public/articles/upstream-dns/index.html").contains(
                #"<link rel="canonical" href="https://staging.example.org/help/articles/upstream-dns/">"#))
        XCTAssertTrue(
            try project.read("public/errors/502.html").contains("https://staging.example.org/help/codes/502/"), "error pages link to the staging help site")

        let wrong = try ProcessRunner.detour(["build", "--base-url", "staging.example.org"], in: project.url)
        XCTAssertEqual(wrong.status, 64)
        XCTAssertTrue(wrong.stderr.contains("--base-url takes an absolute http:// or https:// URL"), wrong.stderr)
    }

    /// nginx serving the built site as a static host does, with `error_page 404 /404.html`: an
    /// unknown path at any depth gets the site's own page, with status 404 and working links.
    func testTheNotFoundPageAsAStaticHostServesIt() throws {
        let build = try ProcessRunner.detour(["build", "--quiet", "--base-url", "http://127.0.0.1/"], in: project.url)
        XCTAssertEqual(build.status, 0, build.stderr)
        let port = LoopbackPort.free()
        let nginx = try NginxServer(
            config: NginxServer.httpBlock("server { listen 127.0.0.1:\(port); root \(project.path)/public; error_page 404 /404.html; }"))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), nginx.errorLog)
        let missing = try HTTPClient.get("http://127.0.0.1:\(port)/articles/no-such-thing/deeper/")
        XCTAssertEqual(missing.status, 404)
        XCTAssertTrue(missing.body.contains("<h1>Page not found</h1>"), missing.body)
        XCTAssertTrue(missing.body.contains(#"<meta name="robots" content="noindex">"#))
        XCTAssertFalse(missing.body.contains(#"rel="canonical""#), "a 404 page names no canonical URL")
        let stylesheet = try XCTUnwrap(
            missing.body.range(of: #"href="([^"]*style\.css)""#, options: .regularExpression).map { String(missing.body[$0].dropFirst(6).dropLast()) })
        XCTAssertEqual(stylesheet, "/style.css")
        XCTAssertEqual(try HTTPClient.get("http://127.0.0.1:\(port)\(stylesheet)").status, 200, "its links work at any depth")
    }
}
