import DetourTestSupport
import Foundation
import XCTest

/// Varnish in front: `detour snippet varnish --example` on the real varnishd, in front of nginx
/// whose own upstream is dead, the built snippet included in a VCL of its own, and a cached
/// page whose backend then dies, with and without `stale_if_error`.
final class VarnishEndToEndTests: XCTestCase {
    private var site: TemporaryFolder!
    private var examples: SnippetExamples!
    private var application: NginxServer?

    override func setUpWithError() throws {
        site = try SampleSite.shipped()
        examples = SnippetExamples(site: site)
    }

    override func tearDown() {
        // varnishd first (see `SnippetExamples.stopAll`).
        examples.stopAll()
        application?.stop()
        site.remove()
    }

    /// The whole stack: nginx's upstream is dead, nginx answers 502 with its page, and Varnish
    /// passes that page on (X-Detour-Page names nginx) with nginx's reference, never cached.
    /// nginx itself dead behind Varnish: Varnish's own page.
    func testInFrontOfNginxWithADeadBackend() throws {
        try build()
        let nginx = try examples.start("nginx", upstream: LoopbackPort.free())
        let varnish = try examples.start("varnish", upstream: nginx)

        let german = try HTTPClient.get(url(varnish), headers: ["Accept-Language": "de-AT,de;q=0.9,en;q=0.5"])
        XCTAssertEqual(german.status, 502, "nginx's status, through Varnish")
        XCTAssertEqual(german.headers["x-detour-page"], "nginx", "the page of the layer that failed")
        XCTAssertTrue(german.body.contains("<html lang=\"de\">") && german.body.contains("<h1>Fehlerhaftes Gateway</h1>"), String(german.body.prefix(400)))
        XCTAssertEqual(german.headers["cache-control"], "no-store")
        XCTAssertEqual(german.headers["retry-after"], "30")
        let reference = try XCTUnwrap(german.headers["x-request-id"])
        XCTAssertNotNil(reference.wholeMatch(of: /[0-9a-f]{32}/), "nginx's $request_id: \(reference)")
        XCTAssertTrue(german.body.contains("\">\(reference)<!--"), "nginx's reference on the page")

        // Not cached: the next visitor gets their own format and reference.
        let api = try HTTPClient.get(url(varnish), headers: ["Accept": "application/problem+json"])
        XCTAssertEqual(api.status, 502)
        XCTAssertEqual(api.headers["content-type"], "application/problem+json")
        let problem = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(api.body.utf8)) as? [String: Any], api.body)
        XCTAssertEqual(problem["status"] as? Int, 502)
        XCTAssertEqual(problem["title"] as? String, "Bad Gateway")
        let again = try HTTPClient.get(url(varnish), headers: ["Accept-Language": "de"])
        XCTAssertNotEqual(again.headers["x-request-id"], reference, "each error is made anew, never served from the cache")

        // nginx gone too: Varnish's own 503 page, in the visitor's language.
        examples.stop(port: nginx)
        let own = try HTTPClient.get(url(varnish), headers: ["Accept-Language": "fr"])
        XCTAssertEqual(own.status, 503)
        XCTAssertEqual(own.headers["x-detour-page"], "varnish")
        XCTAssertTrue(own.body.contains("<h1>Service indisponible</h1>"), String(own.body.prefix(400)))
    }

    /// The built snippet included as its first lines say, in a VCL with subroutines of its own:
    /// a `return (synth(503))` of that VCL gets the page, with the client transaction's ID (the
    /// one in X-Varnish), and the VCL's own parts still run for everything else.
    func testIncludedInAnExistingVCL() throws {
        try build(siteOptions: "install_path: \(site.path)/public")
        let state = site.path + "/state-included"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let config = state + "/default.vcl"
        try """
        vcl 4.1;
        backend default { .host = "127.0.0.1"; .port = "\(LoopbackPort.free())"; }
        include "\(site.path)/public/snippets/varnish.vcl";
        sub vcl_recv {
            if (req.url == "/closed") { return (synth(503, "Closed")); }
            if (req.url == "/teapot") { return (synth(418, "Teapot")); }
        }
        sub vcl_synth {
            if (resp.status == 418) { set resp.body = "short and stout"; return (deliver); }
        }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let port = try examples.run("varnish", config: config, state: state)

        let french = try HTTPClient.get(url(port, path: "/closed"), headers: ["Accept-Language": "fr"])
        XCTAssertEqual(french.status, 503)
        XCTAssertTrue(french.body.contains("<h1>Service indisponible</h1>"), String(french.body.prefix(400)))
        XCTAssertEqual(french.headers["retry-after"], "120")
        let reference = try XCTUnwrap(french.headers["x-request-id"])
        XCTAssertEqual(french.headers["x-varnish"], reference, "the client transaction made this page")
        XCTAssertTrue(french.body.contains("\">\(reference)<!--{placeholder"), "the reference on the page: \(french.body)")

        // The snippet's own headers come from the request only through its patterns: a visitor
        // who sends them cannot choose the file.
        let forged = try HTTPClient.get(url(port, path: "/closed"), headers: ["X-Detour-Language": "../../../../etc", "X-Detour-Format": "passwd"])
        XCTAssertTrue(forged.body.contains("<html lang=\"en\">") && forged.body.contains("<h1>Service Unavailable</h1>"), String(forged.body.prefix(300)))

        let text = try HTTPClient.get(url(port, path: "/closed"), headers: ["Accept": "text/plain"])
        XCTAssertEqual(text.headers["content-type"], "text/plain; charset=utf-8")
        XCTAssertTrue(text.body.hasPrefix("Error 503: Service Unavailable\n"), text.body)

        // A status without a page is the VCL's own business.
        let teapot = try HTTPClient.get(url(port, path: "/teapot"))
        XCTAssertEqual(teapot.status, 418)
        XCTAssertEqual(teapot.body, "short and stout", "the VCL's own vcl_synth ran")
        XCTAssertNil(teapot.headers["x-request-id"])
    }

    /// Varnish caches no 5xx on its own, even with `max-age`, but does once a VCL sets
    /// `beresp.ttl` for every response; the snippet, included first, keeps them out.
    func testServerErrorsAreNotCachedEvenWhenTheVCLSetsATTL() throws {
        try build(siteOptions: "install_path: \(site.path)/public")
        let appPort = LoopbackPort.free()
        let app = try NginxServer(
            config: NginxServer.httpBlock(
                """
                server {
                    listen 127.0.0.1:\(appPort);
                    location = /500 { add_header Cache-Control "max-age=60" always; return 500 "the application's own 500"; }
                    location = /404 { return 404 "the application's own 404"; }
                }
                """))
        application = app
        XCTAssertTrue(LoopbackPort.waitUntilOpen(appPort), app.errorLog)
        let backend = "vcl 4.1;\nbackend default { .host = \"127.0.0.1\"; .port = \"\(appPort)\"; }\n"
        let include = "include \"\(site.path)/public/snippets/varnish.vcl\";\n"
        let everyTTL = "sub vcl_backend_response { set beresp.ttl = 1h; }\n"
        let shapes: [(name: String, vcl: String, cached500: Bool)] = [
            ("Varnish alone", backend, false), ("a TTL for everything", backend + everyTTL, true),
            ("the snippet, then a TTL for everything", backend + include + everyTTL, false),
        ]
        for shape in shapes {
            let state = site.path + "/state-\(shapes.firstIndex { $0.name == shape.name }!)"
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            try shape.vcl.write(toFile: state + "/default.vcl", atomically: true, encoding: .utf8)
            let port = try examples.run("varnish", config: state + "/default.vcl", state: state)
            let before = app.accessLog.components(separatedBy: "GET /500 ").count
            _ = try HTTPClient.get(url(port, path: "/500"))
            let second = try HTTPClient.get(url(port, path: "/500"))
            let fetched = app.accessLog.components(separatedBy: "GET /500 ").count - before
            XCTAssertEqual(fetched, shape.cached500 ? 1 : 2, "\(shape.name): \(shape.cached500 ? "cached" : "each request to the backend")")
            XCTAssertEqual(second.status, 500, shape.name)
            // A 404 is cacheable: Varnish keeps it either way.
            let before404 = app.accessLog.components(separatedBy: "GET /404 ").count
            _ = try HTTPClient.get(url(port, path: "/404"))
            _ = try HTTPClient.get(url(port, path: "/404"))
            XCTAssertEqual(app.accessLog.components(separatedBy: "GET /404 ").count - before404, 1, "\(shape.name): the 404 is cached")
            examples.stop(port: port)
        }
    }

    /// varnishd compiles the built snippet whatever the codes: with server errors and a second
    /// language, with one code that no backend answers with, with none that gets a page.
    func testSnippetCompilesForEveryShapeOfSite() throws {
        let shapes: [String: [String: String]] = [
            "502, two languages": [
                "content/translations/de.yml": "strings:\n  error: Fehler\n",
                "content/site.yml": SampleSite.files["content/site.yml"]! + "\nlanguages: [en, de]\n",
            ],
            "404 only": [
                "content/codes/502.yml": "", "content/codes/404.yml": "status: 404\ntitle: Not Found\nsummary: Nothing here.\n",
                "content/articles/refused.md": SampleSite.files["content/articles/refused.md"]!.replacingOccurrences(of: "codes: [502]", with: "codes: [404]")
                    .replacingOccurrences(of: "/codes/502/", with: "/codes/404/"),
            ],
            "no page": ["content/codes/502.yml": "status: 502\ntitle: Bad Gateway\nsummary: No answer.\nerror_page: false\n"],
        ]
        for (shape, overrides) in shapes {
            let folder = try SampleSite.make(overrides)
            defer { folder.remove() }
            let build = try ProcessRunner.detour(["build", "--quiet"], in: folder.url)
            XCTAssertEqual(build.status, 0, "\(shape): \(build.stderr)")
            let vcl = "vcl 4.1;\nbackend default { .host = \"127.0.0.1\"; .port = \"9\"; }\ninclude \"\(folder.path)/public/snippets/varnish.vcl\";\n"
            try folder.write(["default.vcl": vcl])
            let compiled = try ProcessRunner.run(
                try RequiredTool.find("varnishd"), ["-C", "-f", folder.path + "/default.vcl", "-n", folder.path + "/varnish-check"])
            XCTAssertEqual(compiled.status, 0, "\(shape): \(compiled.stderr)\n\((try? folder.read("public/snippets/varnish.vcl")) ?? "")")
        }
    }

    /// With `stale_if_error`, a cached page whose backend has died is served past its TTL; the
    /// status stays 200 and its Age tells downstream caches it is stale.
    func testStalePageWithGrace() throws {
        try build(siteOptions: "stale_if_error: 3600")
        let varnish = try cachedPageThenDeadBackend()
        for attempt in 1...2 {
            let stale = try HTTPClient.get(url(varnish, path: "/page"))
            XCTAssertEqual(stale.status, 200, "attempt \(attempt): \(stale.body.prefix(200))")
            XCTAssertEqual(stale.body, "the page as cached", "attempt \(attempt)")
            XCTAssertGreaterThan(Int(stale.headers["age"] ?? "") ?? 0, 1, "older than its max-age of 1 s")
        }
    }

    /// Without it, the same page past its TTL is our 503, not Varnish's Guru Meditation.
    func testErrorPageWithoutGrace() throws {
        try build()
        let varnish = try cachedPageThenDeadBackend()
        let response = try HTTPClient.get(url(varnish, path: "/page"))
        XCTAssertEqual(response.status, 503)
        XCTAssertTrue(response.body.contains("<h1>Service Unavailable</h1>"), String(response.body.prefix(400)))
        XCTAssertFalse(response.body.contains("Guru Meditation"))
    }

    // MARK: -

    private func build(siteOptions: String = "") throws {
        if !siteOptions.isEmpty {
            try site.write(["content/site.yml": try site.read("content/site.yml") + siteOptions + "\n"])
        }
        let build = try ProcessRunner.detour(["build", "--quiet"], in: site.url)
        XCTAssertEqual(build.status, 0, build.stderr)
    }

    /// Varnish caches `/page` for a second (and no grace of the backend's own), then the backend stops.
    private func cachedPageThenDeadBackend() throws -> Int {
        let appPort = LoopbackPort.free()
        let app = try NginxServer(
            config: NginxServer.httpBlock(
                """
                server {
                    listen 127.0.0.1:\(appPort);
                    location = /page {
                        add_header Cache-Control "max-age=1, stale-while-revalidate=0";
                        return 200 "the page as cached";
                    }
                }
                """))
        application = app
        XCTAssertTrue(LoopbackPort.waitUntilOpen(appPort), app.errorLog)
        let varnish = try examples.start("varnish", upstream: appPort)
        let fresh = try HTTPClient.get(url(varnish, path: "/page"))
        XCTAssertEqual(fresh.body, "the page as cached")
        app.quitWithoutWaiting()
        XCTAssertTrue(Poll.until { !LoopbackPort.isOpen(appPort) }, "the backend stopped")
        Thread.sleep(forTimeInterval: 2.2)
        return varnish
    }

    private func url(_ port: Int, path: String = "/shop/cart?id=1") -> String { "http://127.0.0.1:\(port)\(path)" }
}
