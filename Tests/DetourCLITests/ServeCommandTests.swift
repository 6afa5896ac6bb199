import DetourTestSupport
import Foundation
import XCTest

/// `detour serve` as a user runs it: the real binary on a free loopback port, real HTTP, real
/// saves on disk, and headless Chromium for the reload.
final class ServeCommandTests: XCTestCase {
    private var site: TemporaryFolder!
    private var port = 0
    private var processes: [ServerProcess] = []

    override func setUpWithError() throws {
        site = try SampleSite.make()
        port = LoopbackPort.free()
        let server = try ServerProcess(
            executable: Repository.detourExecutable, ["serve", "--port", String(port)], in: site.url, log: site.url.appendingPathComponent("serve.log"))
        processes.append(server)
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, timeout: 60), server.log)
    }

    override func tearDown() {
        for process in processes { process.stop() }
        site.remove()
    }

    private var server: ServerProcess { processes[0] }
    private func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func testServesTheSiteWithRealStatusesAndTypes() throws {
        // The port opens a moment before the line is printed.
        XCTAssertTrue(Poll.until { self.server.log.contains("Serving at http://127.0.0.1:\(self.port)/") }, server.log)
        let home = try HTTPClient.get(url("/"))
        XCTAssertEqual(home.status, 200)
        XCTAssertEqual(home.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertTrue(home.body.contains("Connection refused"), home.body)
        XCTAssertTrue(home.body.contains("<script src=\"/__detour/live.js\""), "the reload script is added in serve mode")

        let article = try HTTPClient.get(url("/articles/refused/"))
        XCTAssertEqual(article.status, 200)
        // Links that leave the page stay on the preview.
        XCTAssertTrue(article.body.contains("<link rel=\"canonical\" href=\"http://127.0.0.1:\(port)/articles/refused/\">"), article.body)

        let folder = LoopbackPort.exchange(port, "GET /articles/refused HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") ?? ""
        XCTAssertTrue(folder.hasPrefix("HTTP/1.1 301"), folder)
        XCTAssertTrue(folder.lowercased().contains("location: /articles/refused/"), folder)

        let errorPage = try HTTPClient.get(url("/errors/502.html"))
        XCTAssertEqual(errorPage.status, 502, "an error page is previewed with its own status")
        XCTAssertTrue(errorPage.body.contains("Bad Gateway"))
        let problem = try HTTPClient.get(url("/errors/en/502.json"))
        XCTAssertEqual(problem.status, 502)
        XCTAssertEqual(problem.headers["content-type"], "application/problem+json")
        let raw = try HTTPClient.get(url("/errors/502.http"))
        XCTAssertEqual(raw.status, 200, "HAProxy's raw response file is shown as text")
        XCTAssertTrue(raw.body.hasPrefix("HTTP/1.0 502") || raw.body.hasPrefix("HTTP/1.1 502"), raw.body)

        let missing = try HTTPClient.get(url("/no/such/page/"))
        XCTAssertEqual(missing.status, 404)
        XCTAssertTrue(missing.body.contains("Search the help site"), "the site's own 404 page: \(missing.body)")
        XCTAssertEqual(try HTTPClient.get(url("/style.css")).headers["content-type"], "text/css; charset=utf-8")
        XCTAssertEqual(try HTTPClient.get(url("/search.js")).headers["content-type"], "text/javascript; charset=utf-8")
        XCTAssertEqual(try HTTPClient.get(url("/sitemap.xml")).headers["content-type"], "application/xml; charset=utf-8")
        XCTAssertEqual(try HTTPClient.send(url("/"), method: "POST").status, 405)

        XCTAssertFalse(FileManager.default.fileExists(atPath: site.path + "/public"), "serve never writes the output folder")
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: site.url).status, 0)
        let built = try String(contentsOfFile: site.path + "/public/articles/refused/index.html", encoding: .utf8)
        XCTAssertFalse(built.contains("__detour"), "the reload script never reaches a build")
    }

    func testNothingOutsideTheBuildIsServed() throws {
        try site.write(["secret.txt": "top-secret-detour-\(port)"])
        let attempts = [
            "/../secret.txt", "/../../../../etc/passwd", "/%2e%2e/secret.txt", "/%2E%2E/%2E%2E/etc/passwd",
            "/errors/..%2f..%2fsecret.txt", "/errors/%2e%2e/%2e%2e/secret.txt", "//etc/passwd", "/..%5c..%5csecret.txt",
            "/%00/etc/passwd", "/./../secret.txt", "/" + site.path + "/secret.txt", "/etc/passwd",
        ]
        for attempt in attempts {
            let answer = LoopbackPort.exchange(port, "GET \(attempt) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") ?? ""
            XCTAssertTrue(answer.hasPrefix("HTTP/1.1 404") || answer.hasPrefix("HTTP/1.1 400"), "\(attempt): \(answer.prefix(200))")
            XCTAssertFalse(answer.contains("top-secret-detour"), attempt)
            XCTAssertFalse(answer.contains("root:x:0:0"), attempt)
        }
    }

    func testASaveShowsAndABrokenFrontMatterShowsItsFindings() throws {
        let article = "content/articles/refused.md"
        let original = try site.read(article)
        try site.write([article: original + "\nThe port is zanzibar-\(port).\n"])
        XCTAssertTrue(Poll.until { self.page("/articles/refused/").contains("zanzibar-\(self.port)") }, server.log)

        // A broken front matter: the last good page stays, with the findings over it.
        try site.write([article: original.replacingOccurrences(of: "title: Connection refused", with: "title: [unclosed")])
        XCTAssertTrue(Poll.until { self.page("/articles/refused/").contains("detour-build-failed") }, server.log)
        let broken = page("/articles/refused/")
        XCTAssertTrue(broken.contains("content/articles/refused.md:2:"), broken)
        XCTAssertTrue(broken.contains("zanzibar-\(port)"), "the last good build is still served")
        XCTAssertTrue(page("/").contains("detour-build-failed"), "every page shows it")
        XCTAssertTrue(server.log.contains("content/articles/refused.md:2:"), "and the terminal: \(server.log)")
        XCTAssertTrue(server.isRunning)

        try site.write([article: original.replacingOccurrences(of: "title: Connection refused", with: "title: Connection refused again")])
        XCTAssertTrue(Poll.until { self.page("/articles/refused/").contains("Connection refused again") }, server.log)
        XCTAssertFalse(page("/articles/refused/").contains("detour-build-failed"))
        XCTAssertTrue(page("/").contains("Connection refused again"), "a new title reaches the listing pages")

        // A markup attempt in the findings is shown as text.
        try site.write(["content/codes/502.yml": "status: 502\ntitle: <img src=x onerror=alert(1)>\nsummary: [\n"])
        XCTAssertTrue(Poll.until { self.page("/").contains("detour-build-failed") }, server.log)
        XCTAssertFalse(page("/").contains("<img src=x"), page("/"))
    }

    func testNewAndRemovedArticlesAndTemplates() throws {
        try site.write([
            "content/articles/new/fresh.md": """
            ---
            title: A fresh article
            summary: Written while the preview runs.
            codes: [502]
            tags: [fresh]
            ---

            Fresh text.
            """
        ])
        XCTAssertTrue(Poll.until { self.page("/articles/fresh/").contains("Fresh text.") }, server.log)
        XCTAssertTrue(page("/tags/fresh/").contains("A fresh article"))
        XCTAssertTrue(page("/codes/502/").contains("A fresh article"))

        try FileManager.default.removeItem(atPath: site.path + "/content/articles/new/fresh.md")
        XCTAssertTrue(Poll.until { (try? HTTPClient.get(self.url("/articles/fresh/")).status) == 404 }, server.log)
        XCTAssertFalse(page("/codes/502/").contains("A fresh article"))

        // A template change rebuilds every page with it.
        let footer = site.path + "/templates/partials/footer.mustache"
        try (try String(contentsOfFile: footer, encoding: .utf8) + "<p>footer-\(port)</p>\n").write(toFile: footer, atomically: true, encoding: .utf8)
        XCTAssertTrue(Poll.until { self.page("/articles/refused/").contains("footer-\(self.port)") }, server.log)
    }

    func testABrowserReloadsOnSave() throws {
        let profile = try TemporaryFolder()
        defer { profile.remove() }
        processes.append(try Chromium.open(url("/articles/refused/"), profile: profile))
        XCTAssertTrue(
            Poll.until(timeout: 30) { Chromium.pageTitles(profile: profile).contains { $0.hasPrefix("Connection refused ·") } },
            "\(Chromium.pageTitles(profile: profile))")
        // Give the page its event stream before the save.
        usleep(1_000_000)
        let article = "content/articles/refused.md"
        try site.write([article: try site.read(article).replacingOccurrences(of: "title: Connection refused", with: "title: Reloaded by itself")])
        XCTAssertTrue(
            Poll.until(timeout: 20) { Chromium.pageTitles(profile: profile).contains { $0.hasPrefix("Reloaded by itself ·") } },
            "\(Chromium.pageTitles(profile: profile))\n\(server.log)")
    }

    func testTwoHundredConnectionsAtOnce() throws {
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        for _ in 0..<200 {
            let descriptor = LoopbackPort.connection(to: port, timeout: 20)
            XCTAssertNotNil(descriptor, "connection \(sockets.count + 1) refused")
            if let descriptor { sockets.append(descriptor) }
        }
        // Every connection is open before any asks; then all ask, then all are answered.
        let request = "GET /articles/refused/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        for descriptor in sockets { XCTAssertTrue(LoopbackPort.send(request, on: descriptor)) }
        var answered = 0
        for descriptor in sockets {
            let text = LoopbackPort.receiveAll(descriptor)
            if text.hasPrefix("HTTP/1.1 200"), text.contains("Connection refused") { answered += 1 }
        }
        XCTAssertEqual(answered, 200)
    }

    func testABusyPortIsReportedNotACrash() throws {
        let second = try ProcessRunner.detour(["serve", "--port", String(port)], in: site.url)
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.stderr.contains("detour serve: cannot listen on 127.0.0.1:\(port)"), second.stderr)
        let badBind = try ProcessRunner.detour(["serve", "--bind", "localhost"], in: site.url)
        XCTAssertEqual(badBind.status, 64)
    }

    private func page(_ path: String) -> String { (try? HTTPClient.get(url(path)).body) ?? "" }
}
