import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourNginx

/// A server whose every request meets its `return` (a catch-all `return 444`, a redirect to
/// HTTPS) answers nothing after its rewrite phase: only what nginx says while reading a request.
final class NginxReturnCoverageTests: XCTestCase {
    func testAServerThatReturnsForEveryRequestNeedsPagesOnlyForReadingErrors() throws {
        let folder = try TemporaryFolder(files: [
            "errors/400.html": "400", "errors/404.html": "404", "errors/413.html": "413", "errors/503.html": "503",
            "nginx.conf": """
            events {}
            http {
                server { listen 80 default_server; server_name _; return 444; }
                server { listen 80; server_name shop.example; set $to https://shop.example; return 301 $to$request_uri; }
                server { listen 80; server_name old.example; if ($host = old.example) { return 404; } return 301 https://shop.example; }
            }

            """,
        ])
        defer { folder.remove() }
        let report = NginxChecker.check(
            .init(
                main: folder.url.appendingPathComponent("nginx.conf"), mainDisplay: "nginx.conf", pages: folder.url.appendingPathComponent("errors"), maps: []))
        let uncovered = report.diagnostics.filter { $0.rule == "nginx.code-not-covered" }
        XCTAssertEqual(uncovered.map(\.location.line), [3, 4, 5], report.diagnostics.map(\.message).joined(separator: "\n"))
        XCTAssertTrue(uncovered[0].message.hasPrefix("400 has "), uncovered[0].message)
        XCTAssertTrue(uncovered[1].message.hasPrefix("400 has "), uncovered[1].message)
        // An `if` before the return: the 404 and 413 can still be met.
        XCTAssertTrue(uncovered[2].message.hasPrefix("400, 404, 413 have"), uncovered[2].message)
        let answers = report.coverage[0].answers.first { $0.code == 404 }?.answer
        XCTAssertEqual(answers, "not needed: every request meets 'return 444' at line 3")
    }

    func testNginxAnswersTheReturnBeforeAnyLaterErrorAndAReadingErrorStill() throws {
        // A missing file, a body over the limit: both meet the redirect first. A request line
        // nginx cannot read is answered before any server's directives.
        let port = LoopbackPort.free()
        let nginx = try NginxServer(
            config: NginxServer.httpBlock(
                "server { listen 127.0.0.1:\(port); client_max_body_size 1; root /nonexistent; return 301 https://shop.example$request_uri; }"))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { nginx.isRunning }), nginx.errorLog)
        let status = { (request: String) in (LoopbackPort.exchange(port, request) ?? "").split(separator: " ").dropFirst().first.map(String.init) }
        XCTAssertEqual(status("GET /missing.html HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n"), "301")
        let body = String(repeating: "x", count: 4096)
        XCTAssertEqual(status("POST / HTTP/1.1\r\nHost: shop.example\r\nContent-Length: 4096\r\nConnection: close\r\n\r\n\(body)"), "301")
        XCTAssertEqual(status("GET /\u{01} HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n"), "400")
    }
}
