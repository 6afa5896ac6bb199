import DetourLayout
import DetourTestSupport
import Foundation
import XCTest

/// `detour backend` as an ingress controller, Traefik or a person meets it: every page of the
/// shipped site with its own status in each format and language, the ingress' headers, the
/// service endpoints, hostile requests, and a real nginx configured as ingress-nginx configures
/// custom errors.
final class BackendCommandTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var service: PageServiceRun!

    override func setUpWithError() throws {
        (folder, service) = try PageServiceRun.overShippedSite()
    }

    override func tearDown() {
        service?.stop()
        folder?.remove()
    }

    private var errors: URL { folder.url.appendingPathComponent("public/errors") }

    /// The page as the build wrote it, without the markup a server that fills in the request's ID needs.
    private func built(_ language: String, _ status: Int, _ ext: String) throws -> String {
        try String(contentsOf: errors.appendingPathComponent("\(language)/\(status).\(ext)"), encoding: .utf8)
            .replacingOccurrences(of: OutputFormat.requestReferenceMarkup, with: "")
    }

    private var languages: [String] { ["en", "de", "fr", "es", "ja"] }

    private var statuses: [Int] {
        ((try? FileManager.default.contentsOfDirectory(atPath: errors.appendingPathComponent("en").path)) ?? [])
            .compactMap { $0.hasSuffix(".html") ? Int($0.dropLast(5)) : nil }.sorted()
    }

    func testEveryCodeFormatAndLanguageIsTheBuiltPageWithItsOwnStatus() throws {
        XCTAssertGreaterThanOrEqual(statuses.count, 20)
        let formats = [
            ("text/html", "html", "text/html; charset=utf-8"), ("application/json", "json", "application/problem+json"),
            ("text/plain", "txt", "text/plain; charset=utf-8"),
        ]
        for status in statuses {
            let problem = try JSONSerialization.jsonObject(with: Data(built("en", status, "json").utf8)) as? [String: Any]
            let retryAfter = problem?["retry_after"] as? Int
            for language in languages {
                for (accept, ext, type) in formats {
                    let answer = try XCTUnwrap(service.get("/", [("X-Code", String(status)), ("X-Format", accept), ("Accept-Language", language)]))
                    XCTAssertEqual(answer.status, status, "\(status) \(ext) \(language)")
                    XCTAssertEqual(answer.headers["content-type"], type)
                    XCTAssertEqual(answer.headers["cache-control"], "no-store")
                    XCTAssertEqual(answer.headers["content-language"], language)
                    XCTAssertEqual(answer.headers["retry-after"], retryAfter.map(String.init), "\(status)")
                    XCTAssertEqual(answer.body, try built(language, status, ext), "\(status) \(ext) \(language)")
                }
            }
            // Traefik's errors middleware and people ask by path.
            XCTAssertEqual(service.get("/\(status)")?.status, status)
            let byPath = try XCTUnwrap(service.get("/\(status).json", [("Accept-Language", "de")]))
            XCTAssertEqual(byPath.status, status)
            XCTAssertEqual(byPath.body, try built("de", status, "json"))
        }
    }

    func testTheFormatAndLanguageAreNegotiatedByQuality() throws {
        func format(_ headers: [(String, String)]) -> String? { service.get("/", [("X-Code", "502")] + headers)?.headers["content-type"] }
        XCTAssertEqual(format([]), "text/html; charset=utf-8", "no Accept: HTML")
        XCTAssertEqual(format([("Accept", "text/html;q=0.5, application/json")]), "application/problem+json")
        XCTAssertEqual(format([("Accept", "application/*")]), "application/problem+json")
        XCTAssertEqual(format([("Accept", "text/*;q=0.9, */*;q=0.1")]), "text/html; charset=utf-8", "a tie goes to HTML")
        XCTAssertEqual(format([("Accept", "text/plain, text/html;q=0")]), "text/plain; charset=utf-8")
        XCTAssertEqual(format([("Accept", "image/png")]), "text/html; charset=utf-8", "nothing it asks for: HTML")
        // ingress-nginx passes the visitor's Accept as X-Format, which wins over the request's own.
        XCTAssertEqual(format([("X-Format", "application/json"), ("Accept", "*/*")]), "application/problem+json")
        func language(_ header: String) -> String? { service.get("/", [("X-Code", "503"), ("Accept-Language", header)])?.headers["content-language"] }
        XCTAssertEqual(language("fr-CA"), "fr")
        XCTAssertEqual(language("ja;q=0.5, de"), "de")
        XCTAssertEqual(language("xx, *;q=0.1"), "en")
        XCTAssertEqual(language("de;q=0, es;q=0.2"), "es")
        XCTAssertEqual(service.get("/", [("X-Code", "503")])?.headers["content-language"], "en", "no Accept-Language: the default")
    }

    func testTheRequestIDIsOnThePageInEveryFormat() throws {
        let id = [("X-Request-ID", "7f3a9c2e-41d0")]
        let html = try XCTUnwrap(service.get("/", [("X-Code", "502")] + id))
        XCTAssertTrue(html.body.contains("<code data-label=\"Reference: \">7f3a9c2e-41d0</code>"), html.body)
        let json = try XCTUnwrap(service.get("/", [("X-Code", "502"), ("Accept", "application/json")] + id))
        let problem = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.body.utf8)) as? [String: Any])
        XCTAssertEqual(problem["request_id"] as? String, "7f3a9c2e-41d0")
        XCTAssertEqual(problem["status"] as? Int, 502)
        XCTAssertTrue(try XCTUnwrap(service.get("/502.txt", id)).body.hasSuffix("Reference: 7f3a9c2e-41d0\n"))
        // Markup in an ID is not shown, rather than shown changed.
        let hostile = try XCTUnwrap(service.get("/", [("X-Code", "502"), ("X-Request-ID", "<script>alert(1)</script>")]))
        XCTAssertFalse(hostile.body.contains("<script>alert"), hostile.body)
        XCTAssertTrue(hostile.body.contains("<code data-label=\"Reference: \"></code>"))
    }

    func testHostileRequestsGetA400OrAPageAndNeverAnotherFile() throws {
        for code in ["0", "99999", "502abc", "200", "", "-502", "5 02", "0502"] {
            let answer = try XCTUnwrap(service.get("/", [("X-Code", code)]), code)
            XCTAssertEqual(answer.status, 400, "X-Code '\(code)'")
            XCTAssertTrue(answer.body.contains("X-Code must be an error status from 400 to 599"), answer.body)
        }
        // The first of a repeated header counts.
        XCTAssertEqual(service.get("/", [("X-Code", "503"), ("X-Code", "200")])?.status, 503)
        for path in ["/../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/errors/../../public/index.html", "/502.html/../../index.html", "/502.php", "//502"]
        {
            let answer = try XCTUnwrap(service.get(path), path)
            XCTAssertEqual(answer.status, 404, path)
            XCTAssertFalse(answer.body.contains("root:"), path)
            XCTAssertEqual(answer.body, try built("en", 404, "html"), "\(path): the 404 page")
        }
        // Headers past what the server reads: a 400, and the service goes on.
        let huge = try XCTUnwrap(service.get("/", [("X-Code", "502"), ("X-Padding", String(repeating: "a", count: 200_000))]))
        XCTAssertEqual(huge.status, 400)
        let many = try XCTUnwrap(service.get("/", [("X-Code", "502")] + (0..<500).map { ("X-Repeat", String($0)) }))
        XCTAssertTrue([400, 502].contains(many.status), "\(many.status)")
        // A thousand idle connections do not keep a visitor from the page.
        let idle = (0..<1000).compactMap { _ in LoopbackPort.connection(to: service.port) }
        defer { idle.forEach { close($0) } }
        XCTAssertEqual(idle.count, 1000)
        XCTAssertEqual(service.get("/", [("X-Code", "504")])?.status, 504)
        XCTAssertTrue(service.server.isRunning, service.server.log)
    }

    func testRequestsOnOneConnectionAreAnsweredInTheOrderAsked() throws {
        // Three requests written at once on a kept-alive connection: a page, a HEAD, then the last
        // one closing it. Each answer carries its own status, length and language, in order.
        let request =
            "GET / HTTP/1.1\r\nHost: pages.test\r\nX-Code: 502\r\nAccept-Language: fr\r\n\r\n"
            + "HEAD /503 HTTP/1.1\r\nHost: pages.test\r\nAccept-Language: de\r\n\r\n"
            + "GET /504.json HTTP/1.1\r\nHost: pages.test\r\nConnection: close\r\n\r\n"
        let raw = try XCTUnwrap(LoopbackPort.exchange(service.port, request))
        let heads = raw.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").filter { $0.hasPrefix("HTTP/1.1 ") }
        XCTAssertEqual(heads, ["HTTP/1.1 502 Bad Gateway", "HTTP/1.1 503 Service Unavailable", "HTTP/1.1 504 Gateway Timeout"], raw)
        let french = try built("fr", 502, "html")
        XCTAssertTrue(raw.contains("Content-Length: \(french.utf8.count)\r\n\r\n" + french + "HTTP/1.1 503"), "the page, then the next answer")
        XCTAssertTrue(raw.contains("Content-Length: \(try built("de", 503, "html").utf8.count)\r\n\r\nHTTP/1.1 504"), "HEAD: a length, no body")
        XCTAssertTrue(raw.hasSuffix(try built("en", 504, "json")), raw)
        // HTTP/1.0 closes unless it asks to keep the connection.
        let old = try XCTUnwrap(LoopbackPort.exchange(service.port, "GET /502 HTTP/1.0\r\n\r\n"))
        XCTAssertTrue(old.hasPrefix("HTTP/1.0 502 Bad Gateway\r\n"), old)
        XCTAssertTrue(old.contains("\r\nConnection: close\r\n"), old)
    }

    func testNegotiationStaysRightPastWhatTheServiceRemembers() throws {
        // More distinct Accept-Language values than the service keeps per event loop (512, its
        // NegotiationCache.limit): each still gets its own answer.
        for number in 0..<600 {
            let language = ["fr", "de", "ja"][number % 3]
            let answer = try XCTUnwrap(service.get("/502.txt", [("Accept-Language", "\(language);q=0.\(number % 9 + 1), x-\(number);q=0.05")]))
            XCTAssertEqual(answer.headers["content-language"], language, "value \(number)")
        }
    }

    func testHealthReadinessMetricsAndOneJSONLinePerRequest() throws {
        XCTAssertEqual(service.get("/healthz")?.status, 200)
        XCTAssertEqual(service.get("/readyz")?.status, 200)
        let ingress = [
            ("X-Code", "503"), ("X-Format", "text/html"), ("X-Original-URI", "/checkout?step=2"), ("X-Namespace", "shop"), ("X-Ingress-Name", "storefront"),
            ("X-Service-Name", "web"), ("X-Service-Port", "8080"), ("X-Request-ID", "req-42"), ("Accept-Language", "de"),
        ]
        XCTAssertEqual(service.get("/", ingress)?.status, 503)
        XCTAssertEqual(service.get("/", ingress)?.status, 503)
        XCTAssertEqual(service.get("/", [("X-Code", "oops")])?.status, 400)
        let metrics = try XCTUnwrap(service.get("/metrics"))
        XCTAssertEqual(metrics.status, 200)
        XCTAssertTrue(metrics.body.contains("detour_backend_pages_total{status=\"503\",format=\"html\",language=\"de\"} 2\n"), metrics.body)
        XCTAssertTrue(metrics.body.contains("detour_backend_refused_total 1\n"), metrics.body)
        service.stop()
        let lines = service.server.log.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let page = try XCTUnwrap(lines.first { $0["request_id"] as? String == "req-42" }, service.server.log)
        XCTAssertEqual(page["status"] as? Int, 503)
        XCTAssertEqual(page["language"] as? String, "de")
        XCTAssertEqual(page["original_uri"] as? String, "/checkout?step=2")
        XCTAssertEqual(page["namespace"] as? String, "shop")
        XCTAssertEqual(page["ingress"] as? String, "storefront")
        XCTAssertEqual(page["service"] as? String, "web")
        XCTAssertEqual(page["service_port"] as? String, "8080")
        XCTAssertNotNil(page["duration_us"] as? Int)
        XCTAssertTrue(lines.contains { $0["status"] as? Int == 400 }, "the refused request is logged too")
    }

    func testSIGTERMEndsTheServiceCleanly() throws {
        XCTAssertEqual(service.get("/", [("X-Code", "502")])?.status, 502)
        kill(service.server.pid, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while service.server.isRunning, Date() < deadline { usleep(20_000) }
        let exit = try XCTUnwrap(service.server.exit, "still running 10 s after SIGTERM")
        XCTAssertEqual(exit.status, 0)
        XCTAssertFalse(exit.bySignal, "it stops itself, not killed by the signal")
    }

    func testWithoutABuildItSaysWhatToDo() throws {
        let empty = try TemporaryFolder()
        defer { empty.remove() }
        let result = try ProcessRunner.detour(["backend", "--bind", "127.0.0.1", "--port", String(LoopbackPort.free())], in: empty.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no error pages in"), result.stderr)
        XCTAssertTrue(result.stderr.contains("build them with 'detour build'"), result.stderr)
    }

    /// nginx as ingress-nginx's template writes custom errors for a backend (its CUSTOM_ERRORS
    /// named locations: X-Code and the other headers, `rewrite (.*) / break`, the location's
    /// `error_page <code> = @custom_…`), with the application down or answering 503.
    func testARealNginxInTheIngressShapeServesThePagesWithTheirStatus() throws {
        let nginxPort = LoopbackPort.free()
        let deadPort = LoopbackPort.free()
        let appPort = LoopbackPort.free()
        let named = [502, 503, 504].map { code in
            """
                    location @custom_upstream-default-backend_\(code) {
                        internal;
                        proxy_intercept_errors off;
                        proxy_set_header       X-Code             \(code);
                        proxy_set_header       X-Format           $http_accept;
                        proxy_set_header       X-Original-URI     $request_uri;
                        proxy_set_header       X-Namespace        $namespace;
                        proxy_set_header       X-Ingress-Name     $ingress_name;
                        proxy_set_header       X-Service-Name     $service_name;
                        proxy_set_header       X-Service-Port     $service_port;
                        proxy_set_header       X-Request-ID       $req_id;
                        proxy_set_header       Host               $best_http_host;
                        rewrite                (.*) / break;
                        proxy_pass             http://127.0.0.1:\(service.port);
                    }
            """
        }.joined(separator: "\n")
        func site(_ path: String, upstream: Int) -> String {
            """
                    location \(path) {
                        set $namespace "shop"; set $ingress_name "storefront"; set $service_name "web"; set $service_port "8080";
                        proxy_intercept_errors on;
                        error_page 502 = @custom_upstream-default-backend_502;
                        error_page 503 = @custom_upstream-default-backend_503;
                        error_page 504 = @custom_upstream-default-backend_504;
                        proxy_pass http://127.0.0.1:\(upstream);
                    }
            """
        }
        let nginx = try NginxServer(
            config: NginxServer.httpBlock(
                """
                server {
                    listen 127.0.0.1:\(nginxPort);
                    set $req_id $request_id; set $best_http_host $host;
                    set $namespace ""; set $ingress_name ""; set $service_name ""; set $service_port "";
                \(site("/", upstream: deadPort))
                \(site("/maintenance/", upstream: appPort))
                \(named)
                }
                """))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(nginxPort, while: { nginx.isRunning }), nginx.errorLog)
        let app = try NginxServer.application(port: appPort, status: 503, body: "application maintenance body")
        XCTAssertTrue(LoopbackPort.waitUntilOpen(appPort, while: { app.isRunning }), app.errorLog)
        defer { app.stop() }
        func get(_ path: String, _ headers: [(String, String)]) -> PageServiceRun.Answer? {
            PageServiceRun.send(to: nginxPort, path, headers, host: "shop.test")
        }
        for language in languages {
            let down = try XCTUnwrap(get("/cart", [("Accept-Language", language), ("Accept", "text/html")]))
            XCTAssertEqual(down.status, 502, language)
            // The page with nginx's $request_id, passed as X-Request-ID, as its reference.
            XCTAssertEqual(
                down.body.replacingOccurrences(of: #"">[0-9a-f]{32}</code>"#, with: "\"></code>", options: .regularExpression), try built(language, 502, "html")
            )
            let json = try XCTUnwrap(get("/maintenance/", [("Accept-Language", language), ("Accept", "application/json")]))
            XCTAssertEqual(json.status, 503, language)
            XCTAssertFalse(json.body.contains("application maintenance body"))
            let problem = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.body.utf8)) as? [String: Any])
            XCTAssertEqual(problem["status"] as? Int, 503)
            XCTAssertEqual((problem["request_id"] as? String)?.count, 32)
        }
        let text = try XCTUnwrap(get("/cart", [("Accept", "text/plain")]))
        XCTAssertEqual(text.status, 502)
        XCTAssertTrue(text.body.hasPrefix("Error 502"), text.body)
        service.stop()
        XCTAssertTrue(service.server.log.contains("\"original_uri\":\"/maintenance/\""), service.server.log)
        XCTAssertTrue(service.server.log.contains("\"namespace\":\"shop\""), service.server.log)
    }
}
