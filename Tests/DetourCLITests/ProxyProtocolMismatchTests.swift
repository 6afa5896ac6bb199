import DetourTestSupport
import Foundation
import XCTest

/// What proxy-protocol-mismatch says each server does when the PROXY protocol is on at one end
/// only, on the real servers: HAProxy's `send-proxy` and `send-proxy-v2` and curl's
/// `--haproxy-protocol` as the senders, nginx, HAProxy, Apache and Caddy as the receivers.
final class ProxyProtocolMismatchTests: XCTestCase {
    private let article = ArticleQuotes("articles/proxy/proxy-protocol-mismatch.md")

    /// curl's status (`000`: no HTTP answer) and its error message, asking `url` with `options`.
    private func curl(_ url: String, _ options: [String] = []) throws -> (status: String, error: String) {
        let result = try ProcessRunner.run(
            RequiredTool.find("curl"), ["-sS", "-k", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5"] + options + [url])
        return (result.stdout, result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// nginx with a plain port and a `proxy_protocol` one, HAProxy in front of each sending
    /// version 1 and version 2.
    func testNginxAnswers400ToTheHeaderAndClosesOnItsAbsence() throws {
        let plain = LoopbackPort.free()
        let expecting = LoopbackPort.free()
        let nginx = try NginxServer(
            config: "error_log {{PREFIX}}/error.log info;\n"
                + NginxServer.httpBlock(
                    """
                    server { listen 127.0.0.1:\(plain); location / { return 200 ok; } }
                    server { listen 127.0.0.1:\(expecting) proxy_protocol; location / { return 200 "from $proxy_protocol_addr"; } }
                    """))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(expecting, while: { nginx.isRunning }), nginx.errorLog)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fronts = (0..<3).map { _ in LoopbackPort.free() }
        let haproxy = try Reproduce.haproxy(
            sections:
                """
                frontend v1
                    bind 127.0.0.1:PORT1
                    default_backend v1
                frontend v2
                    bind 127.0.0.1:PORT2
                    default_backend v2
                frontend v2expected
                    bind 127.0.0.1:PORT3
                    default_backend v2expected
                backend v1
                    server plain 127.0.0.1:\(plain) send-proxy
                backend v2
                    server plain 127.0.0.1:\(plain) send-proxy-v2
                backend v2expected
                    server expecting 127.0.0.1:\(expecting) send-proxy-v2

                """, ports: fronts, in: folder)
        defer { haproxy.stop() }

        XCTAssertEqual(try curl("http://127.0.0.1:\(plain)/", ["--haproxy-protocol"]).status, "400")
        XCTAssertEqual(try curl("http://127.0.0.1:\(fronts[0])/").status, "400", "nginx's 400 through HAProxy")
        XCTAssertEqual(try curl("http://127.0.0.1:\(fronts[1])/").status, "400")
        XCTAssertEqual(try curl("http://127.0.0.1:\(fronts[2])/").status, "200", "nginx reads version 2")
        let refused = try curl("http://127.0.0.1:\(expecting)/")
        XCTAssertEqual(refused.status, "000")
        XCTAssertEqual(refused.error, "curl: (52) Empty reply from server")
        try article.assertQuoted("curl: (52) Empty reply from server")
        usleep(300_000)

        let access = nginx.accessLog
        XCTAssertTrue(access.contains(#""PROXY TCP4 127.0.0.1 127.0.0.1 "#) && access.contains(#"" 400 "#), access)
        XCTAssertTrue(access.contains(#""\x00" 400"#), access)
        try article.assertQuoted(#"`"\x00" 400`"#)
        XCTAssertEqual(access.components(separatedBy: "\n").filter { $0.contains(" 200 ") }.count, 1, "the refused request is not in the access log")
        let errors = nginx.errorLog
        let lines = errors.components(separatedBy: "\n")
        let request = "while reading client request line, client: 127.0.0.1, server: , request: \""
        for (level, text) in [
            ("[info]", "client sent invalid request \(request)PROXY TCP4 127.0.0.1 127.0.0.1 "),
            // Version 2's first byte after its signature's CRLFs: a NUL, written as it is.
            ("[info]", "client sent invalid method \(request)\u{0}\""),
            // The connection waitUntilOpen opened and closed, as a TCP health check does.
            ("[info]", "client closed connection while reading PROXY protocol, client: 127.0.0.1, server: 127.0.0.1:\(expecting)"),
            ("[error]", "broken header: \"GET / HTTP/1.1\r"),
        ] {
            XCTAssertTrue(lines.contains { $0.contains(level) && $0.contains(text) }, "\(level) \(text)\n\(errors)")
        }
        // The request's lines as they came, then what nginx was doing.
        let quoted = "broken header: \"GET / HTTP/1.1\r\nHost: 127.0.0.1:\(expecting)\r\n"
        XCTAssertTrue(errors.contains(quoted) && errors.contains("\" while reading PROXY protocol, client: 127.0.0.1, server: 127.0.0.1:\(expecting)"), errors)
        try article.assertQuoted("`client sent invalid method while reading client request line, … request: \"`")
        try article.assertQuoted("`client closed connection while reading PROXY protocol` at `info`")
        let logged = haproxy.log
        XCTAssertTrue(logged.contains("v1/plain ") && logged.contains(" 400 ") && logged.contains(" ---- "), logged)
        try article.assertQuoted("(`----` and `400`)")
    }

    func testHAProxyResetsAConnectionWithoutTheHeaderAndAnswers400ToAnUnexpectedOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let application = LoopbackPort.free()
        let nginx = try NginxServer(config: NginxServer.httpBlock("server { listen 127.0.0.1:\(application); location / { return 200 ok; } }"))
        defer { nginx.stop() }
        let ports = [LoopbackPort.free(), LoopbackPort.free()]
        let haproxy = try Reproduce.haproxy(
            sections:
                """
                frontend expecting
                    bind 127.0.0.1:PORT1 accept-proxy
                    default_backend app
                frontend plain
                    bind 127.0.0.1:PORT2
                    default_backend app
                backend app
                    server app1 127.0.0.1:\(application)

                """, ports: ports, in: folder)
        defer { haproxy.stop() }
        let refused = try curl("http://127.0.0.1:\(ports[0])/")
        XCTAssertEqual(refused.status, "000")
        XCTAssertEqual(refused.error, "curl: (56) Recv failure: Connection reset by peer")
        try article.assertQuoted(refused.error)
        XCTAssertEqual(try curl("http://127.0.0.1:\(ports[0])/", ["--haproxy-protocol"]).status, "200")
        XCTAssertEqual(try curl("http://127.0.0.1:\(ports[1])/", ["--haproxy-protocol"]).status, "400")
        usleep(300_000)
        XCTAssertTrue(haproxy.log.contains("expecting/1: Received something which does not look like a PROXY protocol header"), haproxy.log)
        // The connection waitUntilOpen opened and closed.
        XCTAssertTrue(haproxy.log.contains("expecting/1: Connection closed while waiting for PROXY protocol header"), haproxy.log)
        try article.assertQuoted("`Connection closed while waiting for PROXY protocol header`")
        XCTAssertTrue(haproxy.log.contains(#" 400 0 - - PR-- "#) && haproxy.log.contains(#""<BADREQ>""#), haproxy.log)
        try article.assertQuoted("`PR--` and `\"<BADREQ>\"`")
    }

    /// mod_remoteip reads both versions where it is on and says nothing when the header is
    /// missing; where it is off, the header is the request line.
    func testApacheClosesSilentlyWithoutTheHeaderAndAnswers400ToAnUnexpectedOne() throws {
        var refused = (status: "", error: "")
        let expecting = try Reproduce.apache(
            "LogLevel info remoteip:debug\nRemoteIPProxyProtocol On\nCustomLog /dev/stdout \"\\\"%r\\\" %>s\"", modules: Reproduce.apacheModules + ["remoteip"]
        ) { port in
            refused = try self.curl("http://127.0.0.1:\(port)/")
            XCTAssertEqual(try self.curl("http://127.0.0.1:\(port)/", ["--haproxy-protocol"]).status, "404", "read: the folder has no index")
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let front = LoopbackPort.free()
            let haproxy = try Reproduce.haproxy(
                sections:
                    "frontend web\n    bind 127.0.0.1:PORT1\n    default_backend apache\nbackend apache\n    server a 127.0.0.1:\(port) send-proxy-v2\n",
                ports: [front], in: folder)
            defer { haproxy.stop() }
            XCTAssertEqual(try self.curl("http://127.0.0.1:\(front)/").status, "404", "version 2 read too")
            return 0
        }
        XCTAssertEqual(refused.status, "000")
        XCTAssertEqual(refused.error, "curl: (52) Empty reply from server")
        let requestLines = expecting.log.components(separatedBy: "\n").filter { $0.contains("[client 127.0.0.1") }
        XCTAssertFalse(requestLines.isEmpty, expecting.log)
        // AH03503 opens each connection, AH03511 a header read, AH00129 the request served.
        XCTAssertTrue(
            requestLines.allSatisfy { line in ["AH03503", "AH03511", "AH00129", "AH10634"].contains { line.contains($0) } },
            "nothing says why curl's connection closed:\n\(expecting.log)")
        // The connection waitUntilOpen opened and closed without a byte, as a TCP health check does.
        XCTAssertEqual(requestLines.filter { $0.contains("[remoteip:info]") && $0.contains("AH10634") }.count, 1, expecting.log)
        try article.assertQuoted("`enabled on connection to …`")
        try article.assertQuoted("`AH10634: RemoteIPProxyProtocol: connection closed before a complete header was received` at `info`")

        // Version 1 from curl, version 2 from HAProxy's send-proxy-v2.
        let plain = try Reproduce.apache("CustomLog /dev/stdout \"\\\"%r\\\" %>s\"") { port in
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let front = LoopbackPort.free()
            let haproxy = try Reproduce.haproxy(
                sections: "frontend web\n    bind 127.0.0.1:PORT1\n    default_backend apache\nbackend apache\n    server a 127.0.0.1:\(port) send-proxy-v2\n",
                ports: [front], in: folder)
            defer { haproxy.stop() }
            XCTAssertEqual(try self.curl("http://127.0.0.1:\(front)/").status, "400")
            return Int(try self.curl("http://127.0.0.1:\(port)/", ["--haproxy-protocol"]).status) ?? 0
        }
        XCTAssertEqual(plain.status, 400)
        XCTAssertTrue(plain.log.contains(#""PROXY TCP4 127.0.0.1" 400"#) && plain.log.contains("\n\"\" 400\n"), plain.log)
        XCTAssertFalse(plain.log.contains("[client 127.0.0.1"), "nothing in the ErrorLog:\n\(plain.log)")
        try article.assertQuoted("`\"\" 400` for version 2, and nothing in the ErrorLog")
    }

    /// Caddy 2.6 reads no PROXY header: Go's 400 on HTTP, a handshake error at `debug` on HTTPS.
    func testCaddyAnswers400OnHTTPAndAHandshakeErrorOnHTTPS() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (http, https) = (LoopbackPort.free(), LoopbackPort.free())
        let caddy = try Reproduce.caddy(
            """
            {
            \tadmin off
            \tdebug
            \tskip_install_trust
            \thttp_port \(http)
            \thttps_port \(https)
            }
            http://127.0.0.1:\(http) {
            \trespond "plain"
            }
            https://localhost:\(https) {
            \ttls internal
            \trespond "tls"
            }

            """, in: folder)
        defer { caddy.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(https, while: { caddy.isRunning }), caddy.log)
        XCTAssertEqual(try curl("http://127.0.0.1:\(http)/", ["--haproxy-protocol"]).status, "400")
        XCTAssertEqual(try curl("https://localhost:\(https)/", ["--haproxy-protocol"]).status, "000")
        usleep(300_000)
        XCTAssertTrue(caddy.log.contains("tls: first record does not look like a TLS handshake"), caddy.log)
        try article.assertQuoted("tls: first record does not look like a TLS handshake")
        // What older Go releases read as the record's length: the header's fourth and fifth bytes.
        let bytes = Array("PROXY TCP4".utf8)
        XCTAssertEqual(Int(bytes[3]) << 8 | Int(bytes[4]), 22617)
        try article.assertQuoted("length 22617")
    }
}
