import DetourTestSupport
import Foundation
import XCTest

/// What streaming-responses says: which proxies hold an event stream back while it stays open,
/// what lets it through, and how each cuts a stream that falls silent.
final class StreamingResponsesTests: XCTestCase {
    private let article = ArticleQuotes("articles/proxy/streaming-responses.md")

    /// An application answering `text/event-stream`: its headers (`extra` among them), then
    /// `events` small events 0.3 s apart, each sent as written, chunked as over HTTP/1.1 or, for
    /// nginx's default HTTP/1.0, ended by closing; then it keeps the stream open, or `ending`.
    private func eventStream(chunked: Bool, extra: String = "", events: Int = 3, then ending: FakeUpstream.Ending = .staysOpen) throws -> FakeUpstream {
        var head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n" + extra
        head += chunked ? "Transfer-Encoding: chunked\r\n\r\n" : "Connection: close\r\n\r\n"
        let parts = (0..<events).map { index -> String in
            let event = "data: event \(index)\n\n"
            return chunked ? String(event.utf8.count, radix: 16) + "\r\n" + event + "\r\n" : event
        }
        return try FakeUpstream(.sends(([head] + parts).map { Array($0.utf8) }, then: ending))
    }

    /// What curl (`-N`, printing each byte as it comes) got from `url` within `seconds`: the
    /// response headers, lower-cased, how many events, and curl's exit status (28: still open).
    private func received(_ url: String, _ options: [String] = [], seconds: Double = 2) throws -> (head: String, events: Int, exit: Int32) {
        let result = try ProcessRunner.run(RequiredTool.find("curl"), ["-s", "-N", "-k", "-D", "-", "--max-time", String(seconds)] + options + [url])
        let head = result.stdout.components(separatedBy: "\r\n\r\n").first ?? ""
        return (head.lowercased(), result.stdout.components(separatedBy: "data: event ").count - 1, result.status)
    }

    func testNginxHoldsTheStreamBackUnlessBufferingIsOff() throws {
        let closing = try eventStream(chunked: false)
        let chunked = try eventStream(chunked: true)
        let marked = try eventStream(chunked: false, extra: "X-Accel-Buffering: no\r\n")
        let headersOnly = try eventStream(chunked: true, events: 0)
        let ending = try eventStream(chunked: false, then: .closes)
        defer { [closing, chunked, marked, headersOnly, ending].forEach { $0.stop() } }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try SelfSignedCertificate.write(into: folder.path)
        let (port, tls) = (LoopbackPort.free(), LoopbackPort.free())
        let http11 = "proxy_http_version 1.1;"
        let gzip = "gzip on; gzip_types text/event-stream;"
        let nginx = try NginxServer(
            config: NginxServer.httpBlock(
                """
                server {
                    listen 127.0.0.1:\(port);
                    location /defaults { proxy_pass http://127.0.0.1:\(closing.port); }
                    location /http11 { proxy_pass http://127.0.0.1:\(chunked.port); \(http11) }
                    location /off { proxy_pass http://127.0.0.1:\(closing.port); proxy_buffering off; }
                    location /marked { proxy_pass http://127.0.0.1:\(marked.port); }
                    location /added { proxy_pass http://127.0.0.1:\(closing.port); add_header X-Accel-Buffering no; }
                    location /added-ended { proxy_pass http://127.0.0.1:\(ending.port); add_header X-Accel-Buffering no; }
                    location /gzip { proxy_pass http://127.0.0.1:\(chunked.port); \(http11) \(gzip) }
                    location /gzip-off { proxy_pass http://127.0.0.1:\(chunked.port); \(http11) \(gzip) proxy_buffering off; }
                    location /headers { proxy_pass http://127.0.0.1:\(headersOnly.port); \(http11) }
                }
                server {
                    listen 127.0.0.1:\(tls) ssl;
                    ssl_certificate \(folder.path)/cert.pem;
                    ssl_certificate_key \(folder.path)/key.pem;
                    location /http11 { proxy_pass http://127.0.0.1:\(chunked.port); \(http11) }
                    location /off { proxy_pass http://127.0.0.1:\(chunked.port); \(http11) proxy_buffering off; }
                }
                """))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { nginx.isRunning }), nginx.errorLog)
        let (site, secure) = ("http://127.0.0.1:\(port)", "https://127.0.0.1:\(tls)")
        let compressed = ["--compressed"]
        var events: [String: Int] = [:]
        for (name, url, options) in [
            ("defaults", site + "/defaults", []), ("http11", site + "/http11", []), ("off", site + "/off", []), ("marked", site + "/marked", []),
            ("added", site + "/added", []), ("gzip", site + "/gzip", compressed), ("gzip-off", site + "/gzip-off", compressed),
            ("tls http11", secure + "/http11", []), ("tls off", secure + "/off", []),
        ] {
            events[name] = try received(url, options).events
        }
        XCTAssertEqual(
            events,
            ["defaults": 0, "http11": 3, "off": 3, "marked": 3, "added": 0, "gzip": 0, "gzip-off": 3, "tls http11": 0, "tls off": 3], nginx.errorLog)
        let ended = try received(site + "/added-ended")
        XCTAssertTrue(ended.head.contains("x-accel-buffering: no"), "add_header sends it to the visitor")
        XCTAssertEqual(ended.events, 3, "the events, once the application closed the stream")
        XCTAssertTrue(try received(site + "/gzip-off", compressed).head.contains("content-encoding: gzip"), "the stream was compressed")
        XCTAssertEqual(try received(site + "/headers").head, "", "the headers wait for the first event")
        try article.assertQuoted(
            "| nginx, defaults (`proxy_buffering on`, `proxy_http_version 1.0`) | nothing: the events come when the application closes the stream |",
            "each event as it is written, over plain HTTP; but the response headers wait for the first event",
            "| nginx, `proxy_http_version 1.1`, `listen 443 ssl` | nothing: over TLS the events wait in nginx's buffers |",
            "| nginx, `gzip on` with `text/event-stream` in `gzip_types` | nothing |",
            "each event as it is written, over TLS and with gzip too",
            "`add_header X-Accel-Buffering no;` in nginx's own configuration does **nothing** for the stream"
        )
    }

    /// A stream cut short reads as whole over HTTP/1.0 (its end is the close), and as cut over 1.1.
    func testNginxTellsACutStreamOnlyOverHTTP11() throws {
        let closing = try eventStream(chunked: false, events: 1, then: .closes)
        let chunked = try eventStream(chunked: true, events: 1, then: .closes)
        defer { [closing, chunked].forEach { $0.stop() } }
        let port = LoopbackPort.free()
        let nginx = try NginxServer(
            config: NginxServer.httpBlock(
                """
                server {
                    listen 127.0.0.1:\(port);
                    proxy_buffering off;
                    location /http10 { proxy_pass http://127.0.0.1:\(closing.port); }
                    location /http11 { proxy_pass http://127.0.0.1:\(chunked.port); proxy_http_version 1.1; }
                }
                """))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { nginx.isRunning }), nginx.errorLog)
        XCTAssertEqual(try received("http://127.0.0.1:\(port)/http10").exit, 0, "ended as if whole")
        XCTAssertEqual(try received("http://127.0.0.1:\(port)/http11").exit, 18, "transfer closed with outstanding read data remaining")
        XCTAssertTrue(nginx.errorLog.contains("upstream prematurely closed connection while reading upstream"), nginx.errorLog)
        try article.assertQuoted("with 1.0, an application that dies mid-stream leaves nginx ending the answer as if it were whole")
    }

    func testNginxCutsAStreamSilentLongerThanProxyReadTimeout() throws {
        let chunked = try eventStream(chunked: true)
        defer { chunked.stop() }
        let port = LoopbackPort.free()
        let nginx = try NginxServer(
            config: NginxServer.httpBlock(
                "server { listen 127.0.0.1:\(port); location / { proxy_pass http://127.0.0.1:\(chunked.port); proxy_http_version 1.1; proxy_read_timeout 1s; } }"
            ))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { nginx.isRunning }), nginx.errorLog)
        let answer = try received("http://127.0.0.1:\(port)/", seconds: 5)
        XCTAssertEqual([answer.events, Int(answer.exit)], [3, 18])
        XCTAssertTrue(answer.head.hasPrefix("http/1.1 200"), answer.head)
        XCTAssertTrue(nginx.errorLog.contains("upstream timed out (110: Connection timed out) while reading upstream"), nginx.errorLog)
        XCTAssertTrue(nginx.accessLog.contains("\" 200 "), nginx.accessLog)
        try article.assertQuoted(
            "curl ends with `(18) transfer closed with outstanding read data remaining`",
            "| nginx | `proxy_read_timeout` (60s), the longest silence between two reads | `upstream timed out (110: Connection timed out) while reading upstream`, and 200 in the access log |"
        )
    }

    /// HAProxy passes each event on, compressed too; `timeout server` cuts a silent one,
    /// `timeout tunnel` notwithstanding.
    func testHAProxyStreamsAndCutsOnTimeoutServer() throws {
        let chunked = try eventStream(chunked: true)
        defer { chunked.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let ports = [LoopbackPort.free(), LoopbackPort.free(), LoopbackPort.free()]
        let haproxy = try Reproduce.haproxy(
            sections: """
                    timeout tunnel 30s
                frontend plain
                    bind 127.0.0.1:PORT1
                    default_backend app
                frontend compressed
                    bind 127.0.0.1:PORT2
                    compression algo gzip
                    compression type text/event-stream
                    default_backend app
                frontend short
                    bind 127.0.0.1:PORT3
                    default_backend quick
                backend app
                    server app1 127.0.0.1:\(chunked.port)
                backend quick
                    timeout server 1s
                    server app1 127.0.0.1:\(chunked.port)

                """, ports: ports, in: folder)
        defer { haproxy.stop() }
        XCTAssertEqual(try received("http://127.0.0.1:\(ports[0])/").events, 3)
        let compressed = try received("http://127.0.0.1:\(ports[1])/", ["--compressed"])
        XCTAssertEqual(compressed.events, 3)
        XCTAssertTrue(compressed.head.contains("content-encoding: gzip"), compressed.head)
        let cut = try received("http://127.0.0.1:\(ports[2])/", seconds: 5)
        XCTAssertEqual([cut.events, Int(cut.exit)], [3, 18])
        usleep(200_000)
        XCTAssertTrue(haproxy.log.contains(" 200 ") && haproxy.log.contains(" sD-- "), haproxy.log)
        try article.assertQuoted(
            "| HAProxy 2.6 | each event as it is written, with `compression type text/event-stream` too |",
            "| HAProxy | `timeout server` (`timeout tunnel` does not apply: a stream is not an upgraded connection) | 200 with termination state `sD--` |"
        )
    }

    func testApacheStreamsAndCutsOnItsProxyTimeout() throws {
        let chunked = try eventStream(chunked: true)
        defer { chunked.stop() }
        var answers: [(head: String, events: Int, exit: Int32)] = []
        let outcome = try Reproduce.apache(
            """
            AddOutputFilterByType DEFLATE text/event-stream
            ProxyPass /short http://127.0.0.1:\(chunked.port)/ timeout=1
            ProxyPass / http://127.0.0.1:\(chunked.port)/
            """, modules: Reproduce.apacheModules + ["filter", "deflate"]
        ) { port in
            answers = try [
                received("http://127.0.0.1:\(port)/"), received("http://127.0.0.1:\(port)/", ["--compressed"]),
                received("http://127.0.0.1:\(port)/short", seconds: 5),
            ]
            return 200
        }
        XCTAssertEqual(answers.map(\.events), [3, 3, 3], outcome.log)
        XCTAssertTrue(answers[1].head.contains("content-encoding: gzip"), answers[1].head)
        XCTAssertEqual(answers[2].exit, 18)
        XCTAssertTrue(outcome.log.contains("(70007)The timeout specified has expired: [client 127.0.0.1:"), outcome.log)
        XCTAssertTrue(outcome.log.contains("AH01110: error reading response"), outcome.log)
        try article.assertQuoted(
            "| Apache 2.4 (`mod_proxy_http`) | each event as it is written, with `AddOutputFilterByType DEFLATE text/event-stream` too |",
            "`(70007)The timeout specified has expired: [client …] AH01110: error reading response`, and 200"
        )
    }

    /// Caddy flushes an event stream as it comes, its headers first, and does not compress it.
    func testCaddyStreamsWithItsHeadersAtOnce() throws {
        let chunked = try eventStream(chunked: true)
        let headersOnly = try eventStream(chunked: true, events: 0)
        defer { [chunked, headersOnly].forEach { $0.stop() } }
        var answers: [(head: String, events: Int, exit: Int32)] = []
        let outcome = try Reproduce.caddy(
            site: """
                \thandle /headers {
                \t\treverse_proxy 127.0.0.1:\(headersOnly.port)
                \t}
                \thandle {
                \t\tencode gzip
                \t\treverse_proxy 127.0.0.1:\(chunked.port)
                \t}

                """
        ) { port in
            answers = try [received("http://127.0.0.1:\(port)/", ["--compressed"]), received("http://127.0.0.1:\(port)/headers")]
            return 200
        }
        XCTAssertEqual(answers[0].events, 3, outcome.log)
        XCTAssertFalse(answers[0].head.contains("content-encoding"), answers[0].head)
        XCTAssertTrue(answers[1].head.hasPrefix("http/1.1 200"), "the headers before any event: \(answers[1].head)")
        try article.assertQuoted(
            "| Caddy 2.6 | each event as it is written, and the headers at once; `encode gzip` leaves the stream uncompressed |")
    }
}
