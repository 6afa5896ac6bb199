import DetourTestSupport
import Foundation
import XCTest

/// What the WebSocket article says a visitor's browser shows when the proxy answers the
/// handshake with its own 502: the article's nginx location, proxying to a port nothing listens
/// on, and a page in real headless Chromium that opens a socket through it.
final class WebSocketArticleTests: XCTestCase {
    private let article = Repository.content.appendingPathComponent("articles/upstream/websocket-and-grpc.md")

    /// The article's first `location /ws/` block, its upstream replaced by `upstream`.
    private func location(upstream: String) throws -> String {
        let text = try String(contentsOf: article, encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "location /ws/ {"), "no `location /ws/` block in the article")
        let end = try XCTUnwrap(text.range(of: "\n}", range: start.upperBound..<text.endIndex), "the `location /ws/` block does not end")
        return String(text[start.lowerBound..<end.upperBound]).replacingOccurrences(of: "http://app", with: upstream)
    }

    /// nginx serving `page` at `/` and the article's location for a closed port; its URL.
    private func proxy(page: String) throws -> (NginxServer, TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        try folder.write(["index.html": page])
        chmod(folder.path, 0o755)
        let port = LoopbackPort.free()
        let block = try location(upstream: "http://127.0.0.1:\(LoopbackPort.free())")
        let nginx = try NginxServer(config: NginxServer.httpBlock("server { listen 127.0.0.1:\(port); root \(folder.path); \(block) }"))
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), nginx.errorLog)
        return (nginx, folder, "http://127.0.0.1:\(port)/")
    }

    /// A page that opens a socket through the proxy and writes the code it closed with.
    private let socketPage =
        "<!doctype html><body><script>new WebSocket(\"ws://\" + location.host + \"/ws/\").onclose = e => document.body.textContent = \"closed \" + e.code;</script>"

    func testTheCloseCodeAPageSees() throws {
        let (nginx, folder, url) = try proxy(page: socketPage)
        defer {
            nginx.stop()
            folder.remove()
        }
        let dom = try Chromium.dumpDOM(url)
        XCTAssertTrue(dom.contains("closed 1006"), dom)
        XCTAssertTrue(nginx.accessLog.contains("\"GET /ws/ HTTP/1.1\" 502"), nginx.accessLog)
        XCTAssertTrue(try String(contentsOf: article, encoding: .utf8).contains("code 1006"))
    }

    func testTheConsoleMessageTheArticleQuotes() throws {
        let (nginx, folder, url) = try proxy(page: socketPage)
        defer {
            nginx.stop()
            folder.remove()
        }
        let console = try Chromium.consoleMessages(url)
        let shown = try XCTUnwrap(console.first { $0.text.contains("WebSocket connection to") }, "\(console)")
        // The article's line, its example address in place of this test's.
        let text = try String(contentsOf: article, encoding: .utf8)
        let quoted = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("WebSocket connection to ") }, "the article quotes no console line")
        XCTAssertEqual(
            quoted.replacingOccurrences(of: "wss://app.example.com/ws/", with: url.replacingOccurrences(of: "http://", with: "ws://") + "ws/"),
            shown.text)
    }
}
