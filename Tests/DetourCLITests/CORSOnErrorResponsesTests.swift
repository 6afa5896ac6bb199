import DetourTestSupport
import Foundation
import XCTest

/// What cors-on-error-responses says: which of each server's ways to add
/// `Access-Control-Allow-Origin` reach the error answers it makes itself and the upstream's,
/// and what real headless Chromium tells a page whose cross-origin request got one without it.
final class CORSOnErrorResponsesTests: XCTestCase {
    private let article = ArticleQuotes("articles/proxy/cors-on-error-responses.md")

    /// The status of `url` and whether its answer carries `Access-Control-Allow-Origin`
    /// (with curl's `options`).
    private func allowed(_ url: String, _ options: [String] = []) throws -> (status: Int, allowed: Bool) {
        let result = try ProcessRunner.run(RequiredTool.find("curl"), ["-s", "-o", "/dev/null", "-D", "-", "--max-time", "5"] + options + [url])
        let head = result.stdout.lowercased()
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, head.contains("\naccess-control-allow-origin: *"))
    }

    /// An upstream that answers 500 itself, and a port nothing listens on.
    private func withApplication(_ body: (_ failing: Int, _ dead: Int) throws -> Void) throws {
        let failing = LoopbackPort.free()
        let application = try NginxServer(config: NginxServer.httpBlock("server { listen 127.0.0.1:\(failing); location / { return 500 failed; } }"))
        defer { application.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(failing, while: { application.isRunning }), application.errorLog)
        try body(failing, LoopbackPort.free())
    }

    private var upload: [String] { ["--data-binary", String(repeating: "x", count: 4096)] }

    func testNginxAddsItOnlyWithAlways() throws {
        try withApplication { failing, dead in
            for always in ["", " always"] {
                let port = LoopbackPort.free()
                let nginx = try NginxServer(
                    config: NginxServer.httpBlock(
                        """
                        server {
                            listen 127.0.0.1:\(port);
                            add_header Access-Control-Allow-Origin "*"\(always);
                            client_max_body_size 1k;
                            proxy_connect_timeout 1s;
                            location = /ok { return 200 ok; }
                            location = /own { add_header X-Own 1; return 200 ok; }
                            location /dead { proxy_pass http://127.0.0.1:\(dead); }
                            location /failing { proxy_pass http://127.0.0.1:\(failing); }
                        }
                        """))
                defer { nginx.stop() }
                XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { nginx.isRunning }), nginx.errorLog)
                let site = "http://127.0.0.1:\(port)"
                XCTAssertEqual(try allowed(site + "/ok").allowed, true)
                XCTAssertEqual(try allowed(site + "/own").allowed, false, "a location with an add_header of its own inherits none")
                let answers = try [allowed(site + "/dead"), allowed(site + "/failing"), allowed(site + "/ok", upload)]
                XCTAssertEqual(answers.map(\.status), [502, 500, 413])
                XCTAssertEqual(answers.map(\.allowed), Array(repeating: !always.isEmpty, count: 3), "add_header\(always)")
            }
        }
        try article.assertQuoted("`add_header` sets nothing on an answer of 400 or more")
        try article.assertQuoted("A `location` with any `add_header` of its own inherits none from the `server`")
    }

    /// `Header set` and `http-response` reach the upstream's answer, not the server's own.
    func testApacheAndHAProxyNeedTheirAlwaysForTheirOwnErrors() throws {
        try withApplication { failing, dead in
            for (table, own) in [("", false), ("always ", true)] {
                var answers: [(status: Int, allowed: Bool)] = []
                let outcome = try Reproduce.apache(
                    """
                    Header \(table)set Access-Control-Allow-Origin "*"
                    LimitRequestBody 1024
                    ProxyPass /dead http://127.0.0.1:\(dead)/
                    ProxyPass /failing http://127.0.0.1:\(failing)/
                    """, modules: Reproduce.apacheModules + ["headers"]
                ) { port in
                    let site = "http://127.0.0.1:\(port)"
                    answers = try [allowed(site + "/dead"), allowed(site + "/failing"), allowed(site + "/", upload)]
                    return 0
                }
                XCTAssertEqual(answers.map(\.status), [503, 500, 413], outcome.log)
                XCTAssertEqual(answers.map(\.allowed), [own, true, own], "Header \(table)set")
            }
            for (directive, own) in [("http-response", false), ("http-after-response", true)] {
                let folder = try TemporaryFolder()
                defer { folder.remove() }
                let port = LoopbackPort.free()
                let haproxy = try Reproduce.haproxy(
                    sections: """
                        frontend web
                            bind 127.0.0.1:PORT1
                            \(directive) set-header Access-Control-Allow-Origin "*"
                            use_backend failing if { path_beg /failing }
                            default_backend dead
                        backend dead
                            server d 127.0.0.1:\(dead)
                        backend failing
                            server f 127.0.0.1:\(failing)

                        """, ports: [port], in: folder)
                defer { haproxy.stop() }
                let answers = try [allowed("http://127.0.0.1:\(port)/dead"), allowed("http://127.0.0.1:\(port)/failing")]
                XCTAssertEqual(answers.map(\.status), [503, 500], haproxy.log)
                XCTAssertEqual(answers.map(\.allowed), [own, true], directive)
            }
        }
        try article.assertQuoted("`Header always set`")
        try article.assertQuoted("`http-after-response set-header`")
    }

    func testCaddysHeaderReachesItsErrors() throws {
        try withApplication { failing, dead in
            for upstream in [dead, failing] {
                let outcome = try Reproduce.caddy(site: "\theader Access-Control-Allow-Origin \"*\"\n" + Reproduce.caddySite(upstream: "127.0.0.1:\(upstream)"))
                {
                    port in
                    let answer = try self.allowed("http://127.0.0.1:\(port)/")
                    XCTAssertTrue(answer.allowed, "\(answer.status)")
                    return answer.status
                }
                XCTAssertEqual(outcome.status, upstream == dead ? 502 : 500, outcome.log)
            }
        }
        try article.assertQuoted("Caddy's `header` reaches every answer")
    }

    /// A page on one port asks an API on another (another origin) whose upstream is down: what
    /// the browser says, and what the page's script can read, with nginx's `add_header`
    /// without `always`, with it, and with preflights answered by nginx.
    func testTheBrowserHidesTheStatusBehindACORSError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (page, api, dead) = (LoopbackPort.free(), LoopbackPort.free(), LoopbackPort.free())
        let script = """
            const api = "http://127.0.0.1:\(api)/", say = text => document.body.append(text + ";");
            for (const [name, options] of [["simple", {}], ["preflighted", {method: "PUT"}]])
              fetch(api + name, options).then(r => r.status, e => e).then(x => say(`${name}: ${x}`));
            const xhr = new XMLHttpRequest();
            xhr.open("GET", api + "simple");
            xhr.onloadend = () => say(`xhr: ${xhr.status}`);
            xhr.send();
            """
        try folder.write(["www/index.html": "<!doctype html><title>app</title><script>\(script)</script>"])
        chmod(folder.path, 0o755)
        chmod(folder.path + "/www", 0o755)
        let origin = "from origin 'http://127.0.0.1:\(page)' has been blocked by CORS policy: "
        let missing = "No 'Access-Control-Allow-Origin' header is present on the requested resource."
        for (always, preflight) in [("", ""), (" always", ""), (" always", "if ($request_method = OPTIONS) { return 204; }")] {
            let nginx = try NginxServer(
                config: NginxServer.httpBlock(
                    """
                    server { listen 127.0.0.1:\(page); root \(folder.path)/www; }
                    server {
                        listen 127.0.0.1:\(api);
                        add_header Access-Control-Allow-Origin "*"\(always);
                        add_header Access-Control-Allow-Methods "GET, PUT"\(always);
                        \(preflight)
                        location / { proxy_pass http://127.0.0.1:\(dead); }
                    }
                    """))
            defer { nginx.stop() }
            XCTAssertTrue(LoopbackPort.waitUntilOpen(api, while: { nginx.isRunning }), nginx.errorLog)
            let console = try Chromium.consoleMessages("http://127.0.0.1:\(page)/").map(\.text)
            // What the page's own script got, written into it.
            let read = try Chromium.dumpDOM("http://127.0.0.1:\(page)/")
            let blocked = { (path: String, reason: String) in
                console.contains { $0 == "Access to fetch at 'http://127.0.0.1:\(api)/\(path)' \(origin)\(reason)" }
            }
            if always.isEmpty {
                XCTAssertTrue(blocked("simple", missing), "\(console)")
                XCTAssertTrue(console.contains("Failed to load resource: net::ERR_FAILED"), "\(console)")
                XCTAssertTrue(read.contains("simple: TypeError: Failed to fetch;") && read.contains("xhr: 0;"), read)
                XCTAssertTrue(blocked("preflighted", "Response to preflight request doesn't pass access control check: \(missing)"), "\(console)")
            } else {
                XCTAssertTrue(read.contains("simple: 502;") && read.contains("xhr: 502;"), read)
                XCTAssertTrue(console.contains("Failed to load resource: the server responded with a status of 502 (Bad Gateway)"), "\(console)")
            }
            if preflight.isEmpty {
                XCTAssertTrue(read.contains("preflighted: TypeError: Failed to fetch;"), read)
                if !always.isEmpty {
                    XCTAssertTrue(
                        blocked("preflighted", "Response to preflight request doesn't pass access control check: It does not have HTTP ok status."),
                        "\(console)")
                }
            } else {
                XCTAssertTrue(read.contains("preflighted: 502;"), "the preflight answered by nginx, the PUT reaches the dead upstream: \(read)")
            }
        }
        try article.assertQuoted("has been blocked by CORS policy: \(missing)\nFailed to load resource: net::ERR_FAILED")
        try article.assertQuoted("Response to preflight request doesn't pass access control check: It does not have HTTP ok status.")
        try article.assertQuoted("`TypeError: Failed to fetch` and `XMLHttpRequest` reports status 0")
        try article.assertQuoted("`Failed to load resource: the server responded with a status of 502 (Bad Gateway)`")
    }
}
