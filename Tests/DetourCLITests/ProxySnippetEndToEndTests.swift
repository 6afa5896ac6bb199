import DetourTestSupport
import Foundation
import XCTest

/// `detour snippet <server> --example` run unchanged on the real nginx, Caddy, HAProxy, Apache
/// and Varnish, in front of a dead upstream and of an application that answers 500–504 itself.
/// What a visitor, a browser and an API client get is asserted on each.
final class ProxySnippetEndToEndTests: XCTestCase {
    private var site: TemporaryFolder!
    private var examples: SnippetExamples!
    private var application: NginxServer?

    /// Each code's title in English, German and French, as the shipped content words them.
    private static let titles: [String: [Int: String]] = [
        "en": [500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"],
        "de": [500: "Interner Serverfehler", 502: "Fehlerhaftes Gateway", 503: "Dienst nicht verfügbar", 504: "Gateway-Zeitüberschreitung"],
        "fr": [500: "Erreur interne du serveur", 502: "Passerelle incorrecte", 503: "Service indisponible", 504: "Délai de passerelle dépassé"],
    ]
    private static let retryAfter = [502: "30", 503: "120", 504: "60"]

    override func setUpWithError() throws {
        site = try SampleSite.shipped()
        let build = try ProcessRunner.detour(["build", "--quiet"], in: site.url)
        XCTAssertEqual(build.status, 0, build.stderr)
        examples = SnippetExamples(site: site)
    }

    override func tearDown() {
        examples.stopAll()
        application?.stop()
        site.remove()
    }

    func testNginx() throws { try assertServesPages("nginx") }
    func testCaddy() throws { try assertServesPages("caddy") }
    func testHAProxy() throws { try assertServesPages("haproxy") }
    func testApache() throws { try assertServesPages("apache") }
    func testVarnish() throws { try assertServesPages("varnish") }

    func testNginxExampleChecksClean() throws {
        let (config, _) = try examples.example("nginx", upstream: LoopbackPort.free())
        let check = try ProcessRunner.detour(["check", "nginx", config, "--pages", "public/errors"], in: site.url)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stderr.hasSuffix("0 errors, 0 warnings\n") || check.stderr.isEmpty, "no finding, not even a note: \(check.stderr)")
        XCTAssertFalse(check.stdout.contains("not covered"), check.stdout)
        XCTAssertTrue(check.stdout.contains("502  \(site.path)/public/errors/en/502.html"), check.stdout)

        // Every language and format the maps can choose is followed to its file.
        try FileManager.default.removeItem(atPath: site.path + "/public/errors/fr/503.txt")
        let missing = try ProcessRunner.detour(["check", "nginx", config, "--pages", "public/errors"], in: site.url)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(
            missing.stderr.contains(
                "error: [nginx.error-page-missing-file] error page '/detour-errors/fr/503.txt' for 503 resolves to '\(site.path)/public/errors/fr/503.txt'"),
            missing.stderr)
    }

    /// The Varnish example checks clean with every page of the shipped site answering; a page
    /// one language's and format's path leads to is named once it is gone.
    func testVarnishExampleChecksClean() throws {
        let (config, _) = try examples.example("varnish", upstream: LoopbackPort.free())
        let check = try ProcessRunner.detour(["check", "varnish", config, "--pages", "public/errors"], in: site.url)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stderr.isEmpty, "no finding: \(check.stderr)")
        XCTAssertFalse(check.stdout.contains("not covered"), check.stdout)
        XCTAssertTrue(check.stdout.contains("503  \(site.path)/public/errors/en/503.html"), check.stdout)
        XCTAssertTrue(check.stdout.contains("500  \(site.path)/public/errors/en/500.html"), "the backend's own 500 is replaced: \(check.stdout)")

        try FileManager.default.removeItem(atPath: site.path + "/public/errors/fr/503.txt")
        let missing = try ProcessRunner.detour(["check", "varnish", config, "--pages", "public/errors"], in: site.url)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(
            missing.stderr.contains(
                "error: [varnish.error-page-missing-file] std.fileread in vcl_backend_error reads '\(site.path)/public/errors/fr/503.txt' for 503"),
            missing.stderr)
    }

    /// HAProxy refuses an errorfile that is not a whole, parsable response within its buffer.
    func testEveryHTTPFileIsAcceptedByHAProxy() throws {
        let files = site.snapshot("public/errors").keys.filter { $0.hasSuffix(".http") }.sorted()
        let statuses = Set(files.map { String(($0 as NSString).lastPathComponent.prefix(3)) })
        XCTAssertEqual(
            statuses, ["400", "401", "403", "404", "405", "408", "410", "413", "429", "500", "501", "502", "503", "504"],
            "only the statuses HAProxy raises itself")
        XCTAssertEqual(files.count, statuses.count * 6, "default copy and 5 languages")
        var config = "defaults\n    mode http\nfrontend web\n    bind 127.0.0.1:\(LoopbackPort.free())\n"
        for (index, file) in files.enumerated() {
            config += "backend pages\(index)\n    errorfile \((file as NSString).lastPathComponent.prefix(3)) \(site.path)/public/errors/\(file)\n"
        }
        try site.write(["pages.cfg": config])
        let result = try ProcessRunner.run(try RequiredTool.find("haproxy"), ["-c", "-f", site.path + "/pages.cfg"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }

    // MARK: -

    private func assertServesPages(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let server = try XCTUnwrap(SnippetExamples.servers[name])

        // (a) A dead upstream.
        let dead = LoopbackPort.free()
        let port = try examples.start(name, upstream: dead)
        let status = server.deadUpstreamStatus
        if name == "haproxy" {
            // The language comes with the health check's verdict; the first one runs at start.
            Poll.until {
                (try? HTTPClient.get(self.url(port), headers: ["Accept-Language": "de"]))?.body.contains("<h1>\(Self.titles["de"]![status]!)</h1>") == true
            }
        }
        let down = try HTTPClient.get(url(port))
        XCTAssertEqual(down.status, status, "\(name): the real status, never 200", file: file, line: line)
        XCTAssertTrue(down.body.contains("<h1>\(Self.titles["en"]![status]!)</h1>"), "\(name): \(down.body.prefix(300))", file: file, line: line)
        XCTAssertTrue(down.headers["content-type"]?.hasPrefix("text/html") == true, "\(name): \(down.headers)", file: file, line: line)
        XCTAssertEqual(down.headers["cache-control"], "no-store", name, file: file, line: line)
        XCTAssertEqual(down.headers["x-detour-page"], name, "the layer that made the page", file: file, line: line)
        XCTAssertEqual(down.headers["retry-after"], Self.retryAfter[status], name, file: file, line: line)

        try assertRequestReference(in: down, label: "Reference", server, name, file: file, line: line)
        XCTAssertTrue(
            down.body.contains("width:100%;"), "\(name): the page's CSS arrives as written (HAProxy's log-format copy doubles each %)", file: file, line: line)

        let german = try HTTPClient.get(url(port), headers: ["Accept-Language": "de"])
        XCTAssertEqual(german.status, status, name, file: file, line: line)
        XCTAssertTrue(
            german.body.contains("<html lang=\"de\">") && german.body.contains("<h1>\(Self.titles["de"]![status]!)</h1>"),
            "\(name): \(german.body.prefix(300))", file: file, line: line)
        let french = try HTTPClient.get(url(port), headers: ["Accept-Language": "fr-CH,fr;q=0.9"])
        XCTAssertTrue(french.body.contains("<h1>\(Self.titles["fr"]![status]!)</h1>"), "\(name): \(french.body.prefix(300))", file: file, line: line)
        let english = try HTTPClient.get(url(port), headers: ["Accept-Language": "en-US,en;q=0.9,de;q=0.8"])
        XCTAssertTrue(english.body.contains("<h1>\(Self.titles["en"]![status]!)</h1>"), "\(name): an earlier-listed language wins", file: file, line: line)

        let api = try HTTPClient.get(url(port), headers: ["Accept": "application/json"])
        XCTAssertEqual(api.status, status, name, file: file, line: line)
        XCTAssertEqual(api.headers["content-type"], "application/problem+json", name, file: file, line: line)
        let problem = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(api.body.utf8)) as? [String: Any], "\(name): \(api.body)", file: file, line: line)
        XCTAssertEqual(problem["status"] as? Int, status, name, file: file, line: line)
        XCTAssertEqual(problem["type"] as? String, "https://help.example.com/codes/\(status)/", name, file: file, line: line)
        XCTAssertEqual(problem["title"] as? String, Self.titles["en"]![status], name, file: file, line: line)

        let terminal = try HTTPClient.get(url(port), headers: ["Accept": "text/plain"])
        XCTAssertTrue(terminal.headers["content-type"]?.hasPrefix("text/plain") == true, "\(name): \(terminal.headers)", file: file, line: line)
        XCTAssertTrue(terminal.body.contains(Self.titles["en"]![status]!) && !terminal.body.contains("<"), "\(name): \(terminal.body)", file: file, line: line)
        examples.stopAll()

        // (b) An application that answers 500, 502, 503 and 504 itself.
        let appPort = LoopbackPort.free()
        let app = try NginxServer(
            config: NginxServer.httpBlock(
                """
                server {
                    listen 127.0.0.1:\(appPort);
                    location = /500 { return 500 "the application's own 500"; }
                    location = /502 { return 502 "the application's own 502"; }
                    location = /503 { return 503 "the application's own 503"; }
                    location = /504 { return 504 "the application's own 504"; }
                    location = /404 { return 404 "the application's own 404"; }
                    location = /401 { return 401 "the application's own 401"; }
                    location / { return 200 "application home"; }
                }
                """))
        application = app
        XCTAssertTrue(LoopbackPort.waitUntilOpen(appPort), app.errorLog, file: file, line: line)
        let proxied = try examples.start(name, upstream: appPort)
        Poll.until { (try? HTTPClient.get(self.url(proxied)))?.body == "application home" }
        XCTAssertEqual(try HTTPClient.get(url(proxied)).body, "application home", "\(name): the application answers through the proxy", file: file, line: line)
        for code in [500, 502, 503, 504] {
            let response = try HTTPClient.get(url(proxied, path: "/\(code)"), headers: ["Accept-Language": "de"])
            XCTAssertEqual(response.status, code, "\(name): the application's status is kept", file: file, line: line)
            XCTAssertFalse(response.body.contains("the application's own"), "\(name) \(code): the application's body is replaced", file: file, line: line)
            XCTAssertTrue(
                response.body.contains("<h1>\(Self.titles["de"]![code]!)</h1>"), "\(name) \(code): \(response.body.prefix(300))", file: file, line: line)
            XCTAssertEqual(response.headers["cache-control"], "no-store", "\(name) \(code)", file: file, line: line)
            XCTAssertEqual(response.headers["x-detour-page"], name, "\(name) \(code)", file: file, line: line)
            XCTAssertEqual(response.headers["retry-after"], Self.retryAfter[code], "\(name) \(code)", file: file, line: line)
            try assertRequestReference(in: response, label: "Referenz", server, "\(name) \(code)", file: file, line: line)
        }
        // The application's own 4xx pages are its business: they pass through untouched.
        for code in [404, 401] {
            let response = try HTTPClient.get(url(proxied, path: "/\(code)"), headers: ["Accept-Language": "de"])
            XCTAssertEqual(response.status, code, "\(name) \(code)", file: file, line: line)
            XCTAssertEqual(response.body, "the application's own \(code)", "\(name): the application's \(code) is not replaced", file: file, line: line)
            XCTAssertNil(response.headers["x-detour-page"], "\(name) \(code)", file: file, line: line)
        }
    }

    /// The reference line shows the request's ID, the one the server sends as X-Request-ID and
    /// can log. (A page no server filled in is checked in Chromium: the line is hidden.)
    private func assertRequestReference(
        in response: HTTPResponse, label: String, _ server: SnippetExamples.Server, _ name: String, file: StaticString, line: UInt
    ) throws {
        let pattern = #"<p class="ref"><code data-label="([^"]*): ">(.*?)</code></p>"#
        let match = try XCTUnwrap(
            response.body.range(of: pattern, options: .regularExpression).map { String(response.body[$0]) }, "\(name): \(response.body)", file: file, line: line
        )
        XCTAssertTrue(match.contains("data-label=\"\(label): \""), match, file: file, line: line)
        let inside = match.components(separatedBy: ": \">").dropFirst().joined().components(separatedBy: "</code>")[0]
        let content = inside.replacingOccurrences(of: #"<!--.*?-->"#, with: "", options: .regularExpression)
        XCTAssertTrue(
            content.range(of: server.requestID, options: .regularExpression) != nil, "\(name): an ID, escaped: \(match)", file: file, line: line)
        XCTAssertEqual(response.headers["x-request-id"], content, "\(name): the ID the server sends and logs", file: file, line: line)
    }

    private func url(_ port: Int, path: String = "/shop/cart?id=1") -> String { "http://127.0.0.1:\(port)\(path)" }
}
