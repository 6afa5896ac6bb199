import DetourTestSupport
import Foundation
import XCTest

/// What the shipped code definitions tell operators about nginx, reproduced on the real nginx:
/// the status a visitor gets, the line the error log shows, and what `error_page` can do.
final class NginxStatusFactsTests: XCTestCase {
    private var nginx: NginxServer?
    private var port = 0

    override func setUpWithError() throws {
        port = LoopbackPort.free()
        let server = try NginxServer(
            config: NginxServer.httpBlock(
                """
                error_log {{PREFIX}}/error.log info;
                server {
                    listen 127.0.0.1:\(port);
                    root {{PREFIX}}/html;
                    large_client_header_buffers 2 1k;
                    client_max_body_size 10;
                    error_page 494 /pages/494.html;
                    error_page 401 /pages/401.html;
                    location /pages/ { internal; }
                    location = /close { return 444; }
                    location /upload { proxy_pass http://127.0.0.1:9; }
                    location /staff { auth_basic "staff"; auth_basic_user_file {{PREFIX}}/htpasswd; }
                }
                """))
        try server.folder.write([
            "html/index.html": "home", "html/pages/494.html": "our 494 page", "html/pages/401.html": "our 401 page", "htpasswd": "u:$apr1$x$y\n",
        ])
        nginx = server
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), server.errorLog)
    }

    override func tearDown() { nginx?.stop() }

    private var base: String { "http://127.0.0.1:\(port)" }

    /// 444: nginx closes the connection and sends nothing; the access log records 444.
    func test444SendsNothing() throws {
        XCTAssertThrowsError(try HTTPClient.get(base + "/close"), "an empty reply, not a response")
        XCTAssertTrue(nginx!.accessLog.contains("\"GET /close HTTP/1.1\" 444 0"), nginx!.accessLog)
    }

    /// 400 and 494: a header line over large_client_header_buffers gets 400, logged as
    /// "client sent too long header line"; `error_page 494` gives it its own page.
    func testTooLongHeaderIs400WithThe494Page() throws {
        let response = try HTTPClient.get(base + "/", headers: ["Cookie": String(repeating: "a", count: 2000)])
        XCTAssertEqual(response.status, 400)
        XCTAssertEqual(response.body, "our 494 page")
        XCTAssertTrue(nginx!.errorLog.contains("client sent too long header line"), nginx!.errorLog)
    }

    /// 414: a request line over one buffer, logged as "client sent too long URI".
    func testTooLongURIIs414() throws {
        let response = try HTTPClient.get(base + "/" + String(repeating: "a", count: 2000))
        XCTAssertEqual(response.status, 414)
        XCTAssertTrue(nginx!.errorLog.contains("client sent too long URI"), nginx!.errorLog)
    }

    /// 405: a POST to a static file.
    func testPostToStaticFileIs405() throws {
        XCTAssertEqual(try HTTPClient.send(base + "/index.html", method: "POST", body: Data("x=1".utf8)).status, 405)
    }

    /// 413: a body over client_max_body_size, logged as "client intended to send too large body";
    /// nginx's own page still names it by its old name, "Request Entity Too Large".
    func testBodyOverLimitIs413() throws {
        let response = try HTTPClient.send(base + "/upload", method: "POST", body: Data(repeating: 0x61, count: 100))
        XCTAssertEqual(response.status, 413)
        XCTAssertTrue(response.body.contains("<title>413 Request Entity Too Large</title>"), response.body)
        XCTAssertTrue(nginx!.errorLog.contains("client intended to send too large body: 100 bytes"), nginx!.errorLog)
    }

    /// 401: `error_page` replaces the body and keeps WWW-Authenticate, so the sign-in prompt stays.
    func test401PageKeepsTheChallenge() throws {
        // URLSession answers a Basic challenge itself; the socket shows what nginx sent.
        let raw = try XCTUnwrap(LoopbackPort.exchange(port, "GET /staff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        XCTAssertTrue(raw.hasPrefix("HTTP/1.1 401"), raw)
        XCTAssertTrue(raw.contains("WWW-Authenticate: Basic realm=\"staff\""), raw)
        XCTAssertTrue(raw.hasSuffix("our 401 page"), raw)
    }
}
