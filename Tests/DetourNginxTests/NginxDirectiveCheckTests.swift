import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourNginx

/// The configuration errors nginx finds beyond its lexer, each planted alone into a valid
/// configuration and judged by the real `nginx -t`: detour reports an error at nginx's line
/// that starts with nginx's words, and nothing on the valid one.
final class NginxDirectiveCheckTests: XCTestCase {
    private static let valid = """
        user www-data;
        events { worker_connections 64; }
        http {
            upstream app { server 127.0.0.1:9000 weight=2 max_fails=3; }
            map $http_upgrade $connection_upgrade { default upgrade; '' close; }
            server {
                listen 127.0.0.1:8080;
                server_name shop.test;
                root /srv/www;
                error_page 502 503 504 /errors/502.html;
                proxy_intercept_errors on;
                location = /errors/502.html { internal; }
                location ~ ^/u/(?<user>[a-z]+)$ { return 200 "$user $arg_page ${cookie_id}"; }
                location / {
                    proxy_pass http://app;
                    proxy_read_timeout 30s;
                    aio threads;
                    proxy_set_header Connection $connection_upgrade;
                }
            }
        }

        """

    /// One fault each: what to replace in `valid`, and with what.
    private static let faults: [(name: String, find: String, replace: String)] = [
        ("missing semicolon joins two lines", "proxy_pass http://app;", "proxy_pass http://app"),
        ("misspelt directive", "proxy_pass http://app;", "proxy_passs http://app;"),
        ("directive in the wrong block", "proxy_read_timeout 30s;", "server_name other.test;"),
        ("no argument", "root /srv/www;", "root;"),
        ("no argument in main", "user www-data;", "user;"),
        ("argument to a directive that takes none", "internal;", "internal on;"),
        ("flag that is not on or off", "proxy_intercept_errors on;", "proxy_intercept_errors yes;"),
        ("duplicate location", "location / {", "location = /errors/502.html { }\n        location / {"),
        ("duplicate root", "server_name shop.test;", "server_name shop.test;\n        root /srv/other;"),
        ("port out of range", "listen 127.0.0.1:8080;", "listen 80000;"),
        ("no events section", "events { worker_connections 64; }", ""),
        ("empty upstream", "upstream app { server 127.0.0.1:9000 weight=2 max_fails=3; }", "upstream app {\n    }\n    upstream b { server 127.0.0.1:1; }"),
        ("NGINX Plus directive", "server 127.0.0.1:9000 weight=2 max_fails=3;", "server 127.0.0.1:9000; sticky cookie srv;"),
        ("NGINX Plus server parameter", "weight=2", "service=http"),
        ("unknown block", "location / {", "location /x { foo_block { } }\n        location / {"),
        ("block directive ended by a semicolon", "location / {", "location /y;\n        location / {"),
        ("server block inside a location", "proxy_read_timeout 30s;", "server { }"),
        ("operator nginx does not have", "proxy_read_timeout 30s;", "if ($request_method =$ POST) { return 405; }"),
        ("condition without a variable", "proxy_read_timeout 30s;", "if (request_method = POST) { return 405; }"),
        ("condition without an operand", "proxy_read_timeout 30s;", "if ($request_method = ) { return 405; }"),
        ("misspelt variable", "proxy_read_timeout 30s;", "add_header X-Request $reqest_id;"),
        ("map value naming no variable", "'' close;", "'' $arg;"),
        ("TLS listen without a certificate", "listen 127.0.0.1:8080;", "listen 127.0.0.1:8443 ssl;"),
        ("a size given as a template's placeholder", "proxy_read_timeout 30s;", "client_max_body_size ${CLIENT_MAX_BODY_SIZE};"),
        ("a time given as a variable", "proxy_read_timeout 30s;", "proxy_read_timeout $arg_timeout;"),
        ("proxy_redirect off after a rewrite", "proxy_read_timeout 30s;", "proxy_redirect http:// https://;\n            proxy_redirect off;"),
        // Debian's nginx is built with threads and without file AIO: its table says so.
        ("a value the build refuses", "aio threads;", "aio on;"),
    ]

    private static func nginxSays(_ text: String, nginx: URL, scratch: TemporaryFolder) throws -> (message: String, line: Int?)? {
        let file = scratch.url.appendingPathComponent("nginx.conf")
        try Data(text.utf8).write(to: file)
        let result = try ProcessRunner.run(nginx, ["-t", "-p", scratch.path + "/", "-c", file.path, "-e", scratch.path + "/error.log"])
        guard result.status != 0 else { return nil }
        let emerg = try XCTUnwrap(result.stderr.split(separator: "\n").first { $0.contains("[emerg]") })
        let message = emerg[try XCTUnwrap(emerg.range(of: "[emerg] ")).upperBound...]
        guard let inRange = message.range(of: " in \(file.path):") else { return (String(message), nil) }
        return (String(message[..<inRange.lowerBound]), Int(message[inRange.upperBound...]))
    }

    private static func detourSays(_ text: String, scratch: TemporaryFolder) throws -> [Diagnostic] {
        let file = scratch.url.appendingPathComponent("nginx.conf")
        try Data(text.utf8).write(to: file)
        let options = ProxyCheck.Options(main: file, mainDisplay: "nginx.conf", pages: nil, maps: [])
        return NginxChecker.check(options).diagnostics.filter { $0.severity == .error && ($0.rule == "nginx.directive" || $0.rule == "nginx.syntax") }
    }

    func testEachFaultIsReportedAtNginxsLineInNginxsWords() throws {
        let nginx = try RequiredTool.find("nginx")
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        XCTAssertNil(try Self.nginxSays(Self.valid, nginx: nginx, scratch: scratch), "the base configuration is valid")
        XCTAssertEqual(try Self.detourSays(Self.valid, scratch: scratch).map(\.shown), [])
        for fault in Self.faults {
            XCTAssertTrue(Self.valid.contains(fault.find), fault.name)
            let text = Self.valid.replacingOccurrences(of: fault.find, with: fault.replace)
            guard let (message, line) = try Self.nginxSays(text, nginx: nginx, scratch: scratch) else {
                XCTFail("\(fault.name): nginx accepts it")
                continue
            }
            let ours = try Self.detourSays(text, scratch: scratch)
            // nginx does not start: only the refusals are reported, no advice about pages (unless
            // the configuration is written for NGINX Plus, and judged as Plus would serve it).
            let everything = NginxChecker.check(
                .init(main: scratch.url.appendingPathComponent("nginx.conf"), mainDisplay: "nginx.conf", pages: nil, maps: [])
            ).diagnostics
            if !everything.contains(where: { $0.notes.contains { $0.message == NginxPlusOnly.note } }) {
                XCTAssertEqual(everything.filter { $0.severity != .error }.map(\.shown), [], "\(fault.name): only configuration errors")
            }
            let agreeing = ours.filter { $0.message.hasPrefix(message) && (line == nil || $0.location.line == line) }
            XCTAssertFalse(
                agreeing.isEmpty, "\(fault.name): nginx says line \(line.map(String.init) ?? "-"): \(message); detour: \(ours.map(\.shown))\n\(text)")
        }
    }

    func testADirectiveFromAModuleDetourDoesNotKnowIsANote() throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let text = "load_module modules/ngx_http_acme_module.so;\nevents {}\nhttp { server { acme_certificate shop.test; } }\n"
        let all = try { () throws -> [Diagnostic] in
            let file = scratch.url.appendingPathComponent("nginx.conf")
            try Data(text.utf8).write(to: file)
            return NginxChecker.check(.init(main: file, mainDisplay: "nginx.conf", pages: nil, maps: [])).diagnostics
        }()
        let unknown = try XCTUnwrap(all.first { $0.message.hasPrefix("unknown directive \"acme_certificate\"") })
        XCTAssertEqual(unknown.severity, .note)
        XCTAssertTrue(unknown.message.contains("ngx_http_acme_module.so"), unknown.message)
        XCTAssertFalse(all.hasErrors, all.map(\.shown).joined(separator: "\n"))
    }

    func testDirectivesOfDebiansModulePackagesAreKnownInTheirBlocks() throws {
        let table = NginxDirectiveTable.shared
        // Lua (libnginx-mod-http-lua): a content handler belongs in a location, not in http.
        XCTAssertNotNil(table.form(of: "content_by_lua_block", in: .location).form)
        XCTAssertNil(table.form(of: "content_by_lua_block", in: .http).form)
        XCTAssertTrue(table.form(of: "content_by_lua_block", in: .http).isKnown)
        // Stream and mail (libnginx-mod-stream, -mail): `proxy_pass` there is their own.
        XCTAssertNotNil(table.form(of: "proxy_pass", in: .streamServer).form)
        XCTAssertNotNil(table.form(of: "more_set_headers", in: .location).form, "headers-more")
        XCTAssertFalse(table.form(of: "proxy_passs", in: .location).isKnown)
    }

    /// Several `proxy_redirect` rewrites in one block are taken; `off` with any other is
    /// refused, either way round.
    func testRewritesRepeatButOffStandsAlone() throws {
        let nginx = try RequiredTool.find("nginx")
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let rewrites = Self.valid.replacingOccurrences(
            of: "proxy_read_timeout 30s;", with: "proxy_redirect http://a/ https://a/;\n            proxy_redirect http://b/ https://b/;")
        XCTAssertNil(try Self.nginxSays(rewrites, nginx: nginx, scratch: scratch))
        XCTAssertEqual(try Self.detourSays(rewrites, scratch: scratch).map(\.shown), [])
        let offFirst = Self.valid.replacingOccurrences(
            of: "proxy_read_timeout 30s;", with: "proxy_redirect off;\n            proxy_redirect http://b/ https://b/;")
        let said = try XCTUnwrap(try Self.nginxSays(offFirst, nginx: nginx, scratch: scratch))
        XCTAssertEqual(said.message, "\"proxy_redirect\" directive is duplicate")
        XCTAssertEqual(try Self.detourSays(offFirst, scratch: scratch).map(\.location.line), [said.line].compactMap { $0 })
    }

    /// A TLS address whose default server refuses handshakes needs no certificate there, but
    /// each other server on it still needs one (or to refuse them too); nginx names the first
    /// that has neither.
    func testATLSAddressThatRefusesHandshakesStillNeedsCertificatesElsewhere() throws {
        let nginx = try RequiredTool.find("nginx")
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let text = Self.valid.replacingOccurrences(
            of: "listen 127.0.0.1:8080;",
            with:
                "listen 127.0.0.1:8443 ssl;\n        ssl_reject_handshake on;\n    }\n    server {\n        listen 127.0.0.1:8443 ssl default_server;\n        ssl_reject_handshake on;\n    }\n    server {\n        listen 127.0.0.1:8443 ssl;"
        )
        let said = try XCTUnwrap(try Self.nginxSays(text, nginx: nginx, scratch: scratch))
        XCTAssertEqual(said.message, NginxTLSCertificates.message)
        XCTAssertEqual(try Self.detourSays(text, scratch: scratch).map(\.location.line), [said.line].compactMap { $0 })
        let rejecting = text.replacingOccurrences(
            of: "listen 127.0.0.1:8443 ssl;\n        server_name", with: "listen 127.0.0.1:8443 ssl;\n        ssl_reject_handshake on;\n        server_name")
        XCTAssertNil(try Self.nginxSays(rejecting, nginx: nginx, scratch: scratch))
        XCTAssertEqual(try Self.detourSays(rejecting, scratch: scratch).map(\.shown), [])
    }

    /// A `;` that ends no directive (`server_name a;;`): nginx stops there; removed, the rest
    /// reads the same, so what nginx says next is reported in the same run.
    func testAStraySemicolonDoesNotHideWhatFollows() throws {
        let nginx = try RequiredTool.find("nginx")
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let text = Self.valid.replacingOccurrences(of: "server_name shop.test;", with: "server_name shop.test;;\n        root /srv/other;")
        let first = try XCTUnwrap(try Self.nginxSays(text, nginx: nginx, scratch: scratch))
        let next = try XCTUnwrap(try Self.nginxSays(text.replacingOccurrences(of: ";;", with: ";"), nginx: nginx, scratch: scratch))
        XCTAssertEqual(first.message, "unexpected \";\"")
        XCTAssertEqual(next.message, "\"root\" directive is duplicate")
        XCTAssertEqual(try Self.detourSays(text, scratch: scratch).map(\.location.line), [first.line, next.line].compactMap { $0 })
    }

    /// The table was probed from Debian's nginx with every module package; the nginx installed
    /// here, probed the same way, must still agree with it on every built-in directive.
    func testTheTableMatchesTheInstalledNginx() throws {
        let nginx = try RequiredTool.find("nginx")
        let python = try RequiredTool.find("python3")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let result = try ProcessRunner.run(
            python,
            [
                root.appendingPathComponent("scripts/nginx-directives/probe.py").path, "--nginx", nginx.path,
                "--verify", root.appendingPathComponent("Sources/DetourNginx/Directives/nginx-directives.tsv").path,
            ])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }
}

extension Diagnostic {
    /// `file:line:col message`, for failure messages.
    var shown: String { "\(location.description) \(message)" }
}
