import DetourTestSupport
import Foundation
import XCTest

/// What wrong-site-answers says: where each server sends a host name no site claims, what the
/// visitor gets there, and what Debian's packages put in that place.
final class WrongSiteAnswersTests: XCTestCase {
    private let article = ArticleQuotes("articles/proxy/wrong-site-answers.md")

    /// The body `url` answers for the host `host`, curl's exit status and the status.
    private func ask(_ url: String, host: String) throws -> (body: String, exit: Int32, status: Int) {
        let result = try ProcessRunner.run(RequiredTool.find("curl"), ["-s", "--max-time", "5", "-w", "\n%{http_code}", "-H", "Host: \(host)", url])
        let lines = result.stdout.components(separatedBy: "\n")
        return (lines.dropLast().joined(separator: "\n"), result.status, Int(lines.last ?? "") ?? 0)
    }

    /// The subject of the certificate the TLS server on `port` shows for the name `name`, or
    /// nil when the handshake shows none.
    private func certificateSubject(port: Int, name: String) throws -> String? {
        let result = try ProcessRunner.run(
            RequiredTool.find("openssl"), ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", name], input: Data())
        return result.stdout.split(separator: "\n").first { $0.hasPrefix("subject=") }.map(String.init)
    }

    func testNginxSendsAnUnclaimedNameToTheDefaultServer() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (port, guarded) = (LoopbackPort.free(), LoopbackPort.free())
        try folder.write([
            "sites/b.conf": "server { listen 127.0.0.1:\(port); server_name b.example; return 200 \"site b\"; }",
            "sites/a.conf": "server { listen 127.0.0.1:\(port); server_name a.example; return 200 \"site a\"; access_log \(folder.path)/vhost.log vhost; }",
        ])
        let nginx = try NginxServer(
            config: NginxServer.httpBlock(
                """
                log_format vhost '$host $server_name "$request" $status';
                include \(folder.path)/sites/*.conf;
                server { listen 127.0.0.1:\(port); server_name _; return 200 "underscore"; }
                server { listen 127.0.0.1:\(guarded); server_name a.example; return 200 "site a"; }
                server { listen 127.0.0.1:\(guarded) default_server; return 444; }
                """))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { nginx.isRunning }), nginx.errorLog)
        let site = "http://127.0.0.1:\(port)/"
        XCTAssertEqual(try ["a.example", "b.example", "c.example"].map { try ask(site, host: $0).body }, ["site a", "site b", "site a"])
        XCTAssertEqual(
            try String(contentsOf: folder.url.appendingPathComponent("vhost.log"), encoding: .utf8).contains("c.example a.example \"GET / HTTP/1.1\" 200"), true
        )
        XCTAssertEqual(try ask("http://127.0.0.1:\(guarded)/", host: "c.example").exit, 52, "curl: (52) Empty reply from server")
        XCTAssertEqual(try ask("http://127.0.0.1:\(guarded)/", host: "a.example").body, "site a")
        try article.assertQuoted(
            "or, without one, to **the first `server` block of that address and port** in the configuration's order",
            "(files included with a wildcard are read in alphabetical order)",
            "`server_name _;` is not special",
            "log `$server_name` (the first name of the block that took the request) beside `$host`",
            "`return 444` closes the connection without an answer (curl says `(52) Empty reply from server`)"
        )
    }

    func testNginxShowsTheDefaultServersCertificateOrNoneWithRejectHandshake() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for name in ["a", "b"] { try SelfSignedCertificate.write(into: folder.path, commonName: "\(name).example", prefix: "\(name)-") }
        let (port, guarded) = (LoopbackPort.free(), LoopbackPort.free())
        let certificate = { (name: String) in "ssl_certificate \(folder.path)/\(name)-cert.pem; ssl_certificate_key \(folder.path)/\(name)-key.pem;" }
        let nginx = try NginxServer(
            config: NginxServer.httpBlock(
                """
                server { listen 127.0.0.1:\(port) ssl; server_name a.example; \(certificate("a")) return 200 "site a"; }
                server { listen 127.0.0.1:\(port) ssl; server_name b.example; \(certificate("b")) return 200 "site b"; }
                server { listen 127.0.0.1:\(guarded) ssl default_server; ssl_reject_handshake on; return 444; }
                server { listen 127.0.0.1:\(guarded) ssl; server_name a.example; \(certificate("a")) return 200 "site a"; }
                """))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { nginx.isRunning }), nginx.errorLog)
        XCTAssertEqual(try certificateSubject(port: port, name: "b.example"), "subject=CN = b.example")
        XCTAssertEqual(try certificateSubject(port: port, name: "c.example"), "subject=CN = a.example", "the default server's certificate")
        XCTAssertNil(try certificateSubject(port: guarded, name: "c.example"), "the handshake refused")
        XCTAssertEqual(try certificateSubject(port: guarded, name: "a.example"), "subject=CN = a.example")
        try article.assertQuoted(
            "a name no `ssl` server claims gets **the default server's certificate**",
            "`ssl_reject_handshake on` refuses the TLS handshake of a name no certificate is for, so no certificate is shown"
        )
    }

    /// What the packages installed on this machine put where an unclaimed name lands.
    func testDebianPackagesDefaultSites() throws {
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        let site = read("/etc/nginx/sites-available/default")
        for line in ["listen 80 default_server;", "root /var/www/html;", "index index.html index.htm index.nginx-debian.html;"] {
            XCTAssertTrue(site.contains(line), "nginx's default site has \(line)")
        }
        XCTAssertTrue(read("/var/www/html/index.nginx-debian.html").contains("<title>Welcome to nginx!</title>"))
        XCTAssertTrue(read("/var/www/html/index.html").contains("Apache2 Debian Default Page"))
        XCTAssertTrue(read("/etc/apache2/sites-available/000-default.conf").contains("DocumentRoot /var/www/html"))
        XCTAssertTrue(read("/etc/apache2/apache2.conf").contains("IncludeOptional sites-enabled/*.conf"))
        try article.assertQuoted(
            "Debian's and Ubuntu's package ships `/etc/nginx/sites-enabled/default` with `listen 80 default_server;`, serving `/var/www/html`: its `index.nginx-debian.html` is the \"Welcome to nginx!\" page.",
            "with Apache installed on the same machine it shows \"Apache2 Debian Default Page\" instead"
        )
    }

    func testApacheSendsAnUnclaimedNameToTheFirstVirtualHostForItsAddress() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(["a/index.html": "site a", "b/index.html": "site b"])
        let virtualHost = { (address: String, name: String) in
            "<VirtualHost \(address)>\n    ServerName \(name).example\n    DocumentRoot \(folder.path)/\(name)\n</VirtualHost>\n"
        }
        for (directives, expected) in [
            (virtualHost("*", "b") + virtualHost("*", "a"), ["site a", "site b", "site b"]),
            (virtualHost("*", "b") + virtualHost("127.0.0.1", "a"), ["site a", "site a", "site a"]),
        ] {
            var bodies: [String] = []
            let outcome = try Reproduce.apache(directives) { port in
                bodies = try ["a.example", "b.example", "c.example"].map { try ask("http://127.0.0.1:\(port)/index.html", host: $0).body }
                return 200
            }
            XCTAssertEqual(bodies, expected, outcome.log)
        }
        try folder.write([
            "apache.conf": Reproduce.apacheConfig(
                folder: folder.path, port: LoopbackPort.free(), root: folder.path, directives: virtualHost("*", "b") + virtualHost("*", "a"))
        ])
        let dump = try ProcessRunner.run(RequiredTool.find("apache2"), ["-S", "-f", folder.path + "/apache.conf"])
        XCTAssertTrue((dump.stdout + dump.stderr).contains("default server b.example (\(folder.path)/apache.conf:"), dump.stdout + dump.stderr)
        try article.assertQuoted(
            "a name in neither goes to **the first of them** in the configuration's order",
            "`apache2ctl -S` names the default of each address and port on its `default server` line, with the file and line it comes from",
            "takes **every** request to that address, whatever its name"
        )
    }

    func testCaddyAnswersAnUnclaimedNameOrPathWithAnEmpty200() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (port, guarded) = (LoopbackPort.free(), LoopbackPort.free())
        let caddy = try Reproduce.caddy(
            """
            {
            \tadmin off
            \tauto_https off
            }
            http://a.example:\(port) {
            \tbind 127.0.0.1
            \treverse_proxy /api/* 127.0.0.1:\(LoopbackPort.free())
            }
            http://a.example:\(guarded) {
            \tbind 127.0.0.1
            \trespond "site a"
            }
            http://:\(guarded) {
            \tbind 127.0.0.1
            \trespond "Unknown site" 404
            }

            """, in: folder)
        defer { caddy.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port) && LoopbackPort.waitUntilOpen(guarded), caddy.log)
        let empty = try [ask("http://127.0.0.1:\(port)/", host: "c.example"), ask("http://127.0.0.1:\(port)/other", host: "a.example")]
        XCTAssertEqual(empty.map(\.status), [200, 200])
        XCTAssertEqual(empty.map(\.body), ["", ""])
        XCTAssertFalse(caddy.log.contains("\"level\":\"error\""), caddy.log)
        XCTAssertEqual(try ask("http://127.0.0.1:\(guarded)/", host: "c.example").status, 404)
        XCTAssertEqual(try ask("http://127.0.0.1:\(guarded)/", host: "a.example").body, "site a")
        try article.assertQuoted("gets **200 with an empty body** (`Content-Length: 0`) and nothing in Caddy's log")
    }

    func testHAProxyAnswers503WhenNoBackendIsChosen() throws {
        var statuses: [Int] = []
        let outcome = try Reproduce.haproxy(server: "127.0.0.1:\(LoopbackPort.free())", frontend: "use_backend app if { req.hdr(host) -i app.example }") {
            port, _ in
            statuses.append(try Visitor.status("http://127.0.0.1:\(port)/", ["-H", "Host: c.example"]))
            usleep(200_000)
            return statuses[0]
        }
        XCTAssertEqual(statuses, [503])
        XCTAssertTrue(outcome.log.contains(" web web/<NOSRV> -1/-1/-1/-1/0 503 217 - - SC-- "), outcome.log)
        let denied = try Reproduce.haproxy(
            server: "127.0.0.1:\(LoopbackPort.free())",
            frontend: "http-request deny deny_status 404 unless { req.hdr(host) -i example.com }\n    use_backend app if { req.hdr(host) -i example.com }"
        ) { port, _ in try Visitor.status("http://127.0.0.1:\(port)/", ["-H", "Host: c.example"]) }
        XCTAssertEqual(denied.status, 404, denied.log)
        try article.assertQuoted(
            "`web web/<NOSRV> -1/-1/-1/-1/0 503 217 - - SC--`",
            "`http-request deny deny_status 404 unless { req.hdr(host) -i example.com }`"
        )
    }
}
