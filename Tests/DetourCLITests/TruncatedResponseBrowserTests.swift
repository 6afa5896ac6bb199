import DetourTestSupport
import Foundation
import XCTest

/// What upstream-closed-connection says a visitor's browser shows for an answer cut short
/// behind nginx: real headless Chromium loads two scripts through nginx from upstreams that
/// hang up mid-body, one framed by `Content-Length`, one chunked, over HTTP/1.1 and over
/// HTTP/2, and names each failure in its console as the article quotes it.
final class TruncatedResponseBrowserTests: XCTestCase {
    private let article = Repository.content.appendingPathComponent("articles/upstream/upstream-closed-connection.md")

    /// A chunked answer whose first chunk comes and whose last never does.
    private static let chunkedThenGone = Array(
        "HTTP/1.1 200 OK\r\nContent-Type: text/javascript\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nlet loaded = 1;\n\r\n".utf8)

    /// Console messages of a page that loads `/length.js` and `/chunked.js` through nginx
    /// (`listen` its parameters: `ssl http2` for HTTP/2), from the two upstreams, and what curl
    /// says of each.
    private func console(listen: String, scheme: String) throws -> (browser: [String], curl: [String]) {
        let length = try FakeUpstream(.truncates)
        let chunked = try FakeUpstream(.sends([Self.chunkedThenGone], then: .closes))
        let folder = try TemporaryFolder()
        defer {
            length.stop()
            chunked.stop()
            folder.remove()
        }
        try folder.write(["www/index.html": "<!doctype html><script src=/length.js></script><script src=/chunked.js></script>"])
        chmod(folder.path, 0o755)
        chmod(folder.path + "/www", 0o755)
        try SelfSignedCertificate.write(into: folder.path)
        let port = LoopbackPort.free()
        let nginx = try NginxServer(
            config: NginxServer.httpBlock(
                """
                server {
                    listen 127.0.0.1:\(port) \(listen);
                    ssl_certificate \(folder.path)/cert.pem;
                    ssl_certificate_key \(folder.path)/key.pem;
                    root \(folder.path)/www;
                    location = /length.js { proxy_pass http://127.0.0.1:\(length.port); }
                    location = /chunked.js { proxy_http_version 1.1; proxy_pass http://127.0.0.1:\(chunked.port); }
                }
                """))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { nginx.isRunning }), nginx.errorLog)
        let site = "\(scheme)://127.0.0.1:\(port)/"
        let messages = try Chromium.consoleMessages(site, arguments: ["--ignore-certificate-errors"]).map(\.text)
        let curl = try ["length.js", "chunked.js"].map {
            try ProcessRunner.run(RequiredTool.find("curl"), ["-sSk", "-o", "/dev/null", site + $0]).stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertTrue(nginx.errorLog.contains("upstream prematurely closed connection while reading upstream"), nginx.errorLog)
        return (messages, curl)
    }

    private func articleQuotes(_ text: String) throws -> Bool {
        try String(contentsOf: article, encoding: .utf8).contains(text)
    }

    func testHTTP1NamesTheCutByItsFraming() throws {
        let (messages, curl) = try console(listen: "", scheme: "http")
        for error in ["net::ERR_CONTENT_LENGTH_MISMATCH", "net::ERR_INCOMPLETE_CHUNKED_ENCODING"] {
            XCTAssertTrue(messages.contains { $0.contains("Failed to load resource: \(error)") }, "\(error) not in \(messages)")
            XCTAssertTrue(try articleQuotes("`\(error)`"), error)
        }
        XCTAssertEqual(curl.count, 2)
        XCTAssertTrue(curl[0].hasPrefix("curl: (18) transfer closed with "), curl[0])
        XCTAssertEqual(curl[1], "curl: (18) transfer closed with outstanding read data remaining")
        for said in curl { XCTAssertTrue(try articleQuotes("`\(said.dropFirst(6))`"), said) }
    }

    func testHTTP2NamesEveryCutAProtocolError() throws {
        let (messages, curl) = try console(listen: "ssl http2", scheme: "https")
        XCTAssertEqual(Set(curl), ["curl: (92) HTTP/2 stream 1 was not closed cleanly: INTERNAL_ERROR (err 2)"])
        XCTAssertTrue(try articleQuotes("`\(curl[0].dropFirst(6))`"), curl[0])
        let failures = messages.filter { $0.hasPrefix("Failed to load resource: net::") }
        XCTAssertEqual(failures, Array(repeating: "Failed to load resource: net::ERR_HTTP2_PROTOCOL_ERROR", count: 2), "\(messages)")
        XCTAssertTrue(try articleQuotes("`net::ERR_HTTP2_PROTOCOL_ERROR`"))
    }
}
