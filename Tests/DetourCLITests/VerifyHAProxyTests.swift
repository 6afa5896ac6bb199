import DetourTestSupport
import Foundation
import XCTest

/// `detour verify haproxy` on configurations written as operators write them: the real HAProxy
/// runs the sandboxed copy, its lines rewritten whole, and what it answered decides the findings.
final class VerifyHAProxyTests: XCTestCase {
    private var workspace: VerifyWorkspace!
    private var folder: TemporaryFolder { workspace.folder }

    override func setUpWithError() throws {
        workspace = try VerifyWorkspace(server: "haproxy")
        // detour's pages in HAProxy's raw form, their bodies the HTML pages' bytes.
        try folder.write(
            Dictionary(
                uniqueKeysWithValues: [500, 502, 503, 504].map { code in
                    (
                        "public/errors/\(code).http",
                        "HTTP/1.0 \(code) Error\r\nCache-Control: no-cache\r\nContent-Type: text/html\r\n\r\n<p>detour's page for \(code)</p>\n"
                    )
                }))
    }

    override func tearDown() {
        workspace?.remove()
    }

    private let head = """
        global
            log /dev/log local0
            chroot /var/lib/haproxy
            stats socket /run/haproxy/admin.sock mode 660 level admin
            user haproxy
            group haproxy
            daemon

        defaults
            mode http
            timeout connect 5s
            timeout client 50s
            timeout server 50s

        """

    private let pages = """
            errorfile 500 /usr/share/detour/errors/500.http
            errorfile 502 /usr/share/detour/errors/502.http
            errorfile 503 /usr/share/detour/errors/503.http
            errorfile 504 /usr/share/detour/errors/504.http

        """

    private func verify(_ config: String, extra: [String] = []) throws -> ProcessResult {
        try folder.write(["conf/haproxy.cfg": config])
        let arguments =
            [
                "verify", "haproxy", "conf/haproxy.cfg", "--pages", "public/errors", "--map", "/usr/share/detour=public", "--timeout", "5", "--format", "json",
            ] + extra
        return try workspace.detour(arguments)
    }

    /// HAProxy's own 503 and 504 answered with detour's errorfiles; the application's own 500
    /// passes through the backend that has no `http-response return` for it, and is named at
    /// that backend, the one the request was routed to by its path.
    func testPagesForHAProxysOwnErrorsAndTheApplicationsPassingThrough() throws {
        let result = try verify(
            head + pages
                + """
                frontend www
                    bind :80
                    bind :443 ssl crt /etc/haproxy/certs/site.pem alpn h2,http/1.1
                    use_backend api if { path_beg /api }
                    default_backend app

                backend app
                    http-response return status 500 errorfile /usr/share/detour/errors/500.http if { status 500 }
                    http-response return status 502 errorfile /usr/share/detour/errors/502.http if { status 502 }
                    http-response return status 503 errorfile /usr/share/detour/errors/503.http if { status 503 }
                    http-response return status 504 errorfile /usr/share/detour/errors/504.http if { status 504 }
                    server app1 10.0.0.5:8080 check inter 2s

                backend api
                    server api1 10.0.0.6:9000 check

                """)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try VerifyWorkspace.findings(result), ["haproxy.upstream-errors-pass-through:31"])
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.status, 503)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.body, "detour's public/errors/503.html")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 500")?.body, "detour's public/errors/500.html")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "slower than the timeout")?.status, 504)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/api", "answering 500")?.body, "the upstream's own body")
        let rewrites = try VerifyWorkspace.texts(result, "rewrites")
        XCTAssertTrue(
            rewrites.contains {
                $0.hasPrefix("bind :443: 127.0.0.1:")
                    && $0.hasSuffix("(crt /etc/haproxy/certs/site.pem alpn h2,http/1.1 dropped: TLS kept, with the sandbox's certificate)")
            }, "\(rewrites)")
        XCTAssertTrue(rewrites.contains { $0.hasPrefix("server app1 10.0.0.5:8080: the fake upstream (plain HTTP), check inter 2s dropped") }, "\(rewrites)")
        XCTAssertTrue(rewrites.contains("timeout server 50s: 3s, so a silent server is given up in time"), "\(rewrites)")
    }

    /// The edge idiom: plain HTTP redirected to HTTPS unless the connection is TLS. The TLS
    /// listener is probed over TLS, where the backend's failures are met: HAProxy's 503 and 504
    /// are answered with redirects (`errorloc`), each named at its own line.
    func testATLSListenerIsProbedOverTLSAndAnErrorlocRedirectIsNamed() throws {
        let result = try verify(
            head + "    errorloc 503 /maintenance.html\n    errorloc 504 /slow.html\n\n"
                + """
                frontend pub
                    bind :80
                    bind :443 ssl crt /etc/haproxy/certs/site.pem alpn h2,http/1.1
                    http-request redirect scheme https code 301 if !{ ssl_fc }
                    default_backend app

                backend app
                    server app1 10.0.0.5:8080 check

                """)
        XCTAssertEqual(
            Set(try VerifyWorkspace.findings(result)),
            // HAProxy's own 502, for a response it cannot read, has no page: its built-in one.
            ["haproxy.errorloc-redirect:14", "haproxy.errorloc-redirect:15", "haproxy.upstream-errors-pass-through:23", "haproxy.code-not-covered:17"],
            result.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening", scheme: "http")?.status, 301)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening", scheme: "https")?.status, 302)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 200", scheme: "https")?.body, "the upstream's own body")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "slower than the timeout", scheme: "https")?.status, 302)
    }

    /// A frontend that serves only its office's network refuses 127.0.0.1: the probes come
    /// from an address its ACLs let in (the PROXY protocol, before TLS), and what they meet is
    /// the backend's, not the refusal.
    func testAFrontendThatLetsOnlySomeNetworksInIsProbedFromOneOfThem() throws {
        let result = try verify(
            head + pages
                + """
                frontend office
                    bind :80
                    bind :443 ssl crt /etc/haproxy/certs/site.pem
                    acl office src 192.168.10.0/24 10.8.0.0/16
                    http-request deny if !office
                    default_backend app

                backend app
                    server app1 10.0.0.5:8080

                """)
        XCTAssertEqual(Set(try VerifyWorkspace.findings(result)), ["haproxy.upstream-errors-pass-through:25"], result.stdout)
        for scheme in ["http", "https"] {
            XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 200", scheme: scheme)?.body, "the upstream's own body", scheme)
            XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening", scheme: scheme)?.body, "detour's public/errors/503.html", scheme)
        }
        let rewrites = try VerifyWorkspace.texts(result, "rewrites")
        XCTAssertTrue(rewrites.contains { $0.contains("accept-proxy: the probes come from 192.168.10.1") }, "\(rewrites)")
    }

    /// Without errorfiles visitors get HAProxy's built-in pages: named at the frontend.
    func testBuiltInPagesAreNotCovered() throws {
        let result = try verify(head + "frontend www\n    bind :80\n    default_backend app\n\nbackend app\n    server app1 10.0.0.5:8080\n")
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertEqual(Set(try VerifyWorkspace.findings(result)), ["haproxy.code-not-covered:14", "haproxy.upstream-errors-pass-through:18"])
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.body, "the server's own error page")
    }

    /// A stats page that takes every path still asks for credentials (`stats auth`): HAProxy's
    /// 401, built-in where no errorfile 401 is in effect, detour's page where one is.
    func testAStatsPageAskingForCredentialsAnswersWithTheErrorfileFor401() throws {
        try folder.write([
            "public/errors/401.html": "<p>detour's page for 401</p>\n",
            "public/errors/401.http": "HTTP/1.0 401 Unauthorized\r\nCache-Control: no-cache\r\nContent-Type: text/html\r\n\r\n<p>detour's page for 401</p>\n",
        ])
        let stats = head + "listen stats\n    bind :8404\n    stats enable\n    stats uri /\n    stats auth admin:secret\n"
        let bare = try verify(stats, extra: ["--compare-check"])
        XCTAssertEqual(try VerifyWorkspace.findings(bare), ["haproxy.code-not-covered:14"], bare.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(bare, "/", "answering 200")?.status, 401)
        XCTAssertEqual(try VerifyWorkspace.answer(bare, "/", "answering 200")?.body, "the server's own error page")
        XCTAssertEqual(try VerifyWorkspace.disagreements(bare), [], bare.stdout)
        let covered = try verify(stats + "    errorfile 401 /usr/share/detour/errors/401.http\n", extra: ["--compare-check"])
        XCTAssertEqual(try VerifyWorkspace.findings(covered), [], covered.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(covered, "/", "answering 200")?.body, "detour's public/errors/401.html")
        XCTAssertEqual(try VerifyWorkspace.disagreements(covered), [], covered.stdout)
    }

    /// HAProxy raises its own 502 only for a response it cannot read: the fake upstream sends
    /// one, and the frontend without a page for it shows HAProxy's. A page whose file says
    /// `200 OK` is that file's status line, at its errorfile; an operator's own page for 503 is
    /// theirs, not a code left uncovered.
    func testAnUnreadableResponseMeetsHAProxysOwn502AndAPageFileSaysItsOwnStatus() throws {
        try folder.write([
            "public/errors/200-504.http": "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>detour's page for 504</p>\n",
            "public/maintenance.http": "HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/html\r\n\r\n<p>back soon</p>\n",
        ])
        let result = try verify(
            head
                + """
                frontend www
                    bind :80
                    default_backend app
                    errorfile 503 /usr/share/detour/maintenance.http
                    errorfile 504 /usr/share/detour/errors/200-504.http

                backend app
                    http-response return status 500 errorfile /usr/share/detour/errors/500.http if { status 500 }
                    http-response return status 502 errorfile /usr/share/detour/errors/502.http if { status 502 }
                    http-response return status 503 errorfile /usr/share/detour/errors/503.http if { status 503 }
                    http-response return status 504 errorfile /usr/share/detour/errors/504.http if { status 504 }
                    server app1 10.0.0.5:8080

                """)
        XCTAssertEqual(Set(try VerifyWorkspace.findings(result)), ["haproxy.code-not-covered:14", "haproxy.errorfile-status-line:18"], result.stdout)
        let unreadable = try VerifyWorkspace.answer(result, "/", "sending a header no proxy can read")
        XCTAssertEqual(unreadable?.status, 502)
        XCTAssertEqual(unreadable?.body, "the server's own error page")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "slower than the timeout")?.status, 200)
    }

    /// An errorfile that is not there is HAProxy's refusal, at its line; a configuration with
    /// nothing to serve is valid, with nothing to probe.
    func testRefusalsAndAConfigurationWithoutListeners() throws {
        let missing = try verify(
            head
                + "    errorfile 503 /etc/haproxy/errors/503.http\n\nfrontend www\n    bind :80\n    default_backend app\n\nbackend app\n    server a 10.0.0.5:80\n"
        )
        XCTAssertEqual(missing.status, 1, missing.stdout + missing.stderr)
        XCTAssertEqual(try VerifyWorkspace.findings(missing), ["haproxy.error-page-missing-file:14"])
        // Named by the path written, with how to map it, never by the sandbox's stand-in.
        XCTAssertTrue(missing.stdout.contains("error opening file '/etc/haproxy/errors/503.http'"), missing.stdout)
        XCTAssertTrue(missing.stdout.contains("--map /etc/haproxy/errors=DIR reads a local one"), missing.stdout)
        XCTAssertFalse(missing.stdout.contains(workspace.scratch.path), missing.stdout)
        let idle = try verify(head + pages)
        XCTAssertEqual(idle.status, 0, idle.stdout + idle.stderr)
        let notProbed = try VerifyWorkspace.texts(idle, "not_probed")
        XCTAssertTrue(notProbed.contains { $0.contains("nothing to probe") }, "\(notProbed)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: workspace.scratch.path), [], "the sandbox is removed")
        // HAProxy 1.x's `listen NAME ADDRESS`: refused, and every line of the section with it,
        // as `detour check haproxy` says.
        let legacy = try verify(head + pages + "listen stats :70\n    stats enable\n    stats uri /\n")
        XCTAssertEqual(legacy.status, 1, legacy.stdout + legacy.stderr)
        XCTAssertEqual(try VerifyWorkspace.findings(legacy), ["haproxy.syntax:18", "haproxy.syntax:19", "haproxy.syntax:20"], legacy.stdout)
        let checked = try workspace.detour([
            "check", "haproxy", "conf/haproxy.cfg", "--pages", "public/errors", "--map", "/usr/share/detour=public", "--format", "json",
        ])
        XCTAssertEqual(try VerifyWorkspace.findings(checked), ["haproxy.syntax:18", "haproxy.syntax:19", "haproxy.syntax:20"], checked.stdout)
    }

    /// An address its keyword does not take (a listener without a port, a server's port
    /// range) stays as written in the sandbox, where the loopback port or the fake upstream
    /// would have hidden it: HAProxy refuses those lines, as `detour check haproxy` says.
    func testAnAddressItsKeywordDoesNotTakeIsRefusedAsWritten() throws {
        let refused = try verify(head + pages + "frontend www\n    bind 10.0.0.1\n    default_backend app\n\nbackend app\n    server a 10.0.0.5:80-81\n")
        XCTAssertEqual(refused.status, 1, refused.stdout + refused.stderr)
        XCTAssertEqual(try VerifyWorkspace.findings(refused), ["haproxy.syntax:19", "haproxy.syntax:23"], refused.stdout)
        XCTAssertTrue(refused.stdout.contains("missing port specification in '10.0.0.1'"), refused.stdout)
        let checked = try workspace.detour([
            "check", "haproxy", "conf/haproxy.cfg", "--pages", "public/errors", "--map", "/usr/share/detour=public", "--format", "json",
        ])
        XCTAssertEqual(try VerifyWorkspace.findings(checked), ["haproxy.syntax:19", "haproxy.syntax:23"], checked.stdout)
    }

    /// Pattern files and pages at relative paths are read from the configuration's folder, as
    /// `detour check haproxy` reads them (HAProxy reads them from the folder it runs in): present,
    /// HAProxy starts; one that is not there is refused where check refuses it.
    func testRelativePatternFilesAreReadFromTheConfigurationsFolder() throws {
        try folder.write(["conf/maps/deny.lst": "10.9.9.9\n", "conf/maps/hosts.map": "shop.example app\n"])
        let config =
            head + pages
            + "frontend www\n    bind :80\n    acl blocked src -f maps/deny.lst\n    http-request deny if blocked\n"
            + "    http-request set-var(txn.app) req.hdr(host),lower,map(maps/hosts.map,app)\n    default_backend app\n\nbackend app\n    server a 10.0.0.5:80\n"
        let present = try verify(config)
        XCTAssertEqual(try VerifyWorkspace.findings(present).filter { $0.hasPrefix("haproxy.syntax") }, [], present.stdout)
        XCTAssertTrue(
            try VerifyWorkspace.texts(present, "rewrites").contains { $0.contains("-f maps/deny.lst") && $0.contains("from the configuration's folder") })
        let absent = try verify(config.replacingOccurrences(of: "maps/hosts.map", with: "maps/nothing.map"))
        XCTAssertEqual(try VerifyWorkspace.findings(absent), ["haproxy.syntax:22"], absent.stdout)
        let checked = try workspace.detour(["check", "haproxy", "conf/haproxy.cfg", "--format", "json"])
        XCTAssertEqual(try VerifyWorkspace.findings(checked).filter { $0.hasPrefix("haproxy.syntax") }, ["haproxy.syntax:22"], checked.stdout)
    }

    /// A Lua script at an installed path is read through `--map`, as page files are: HAProxy
    /// starts with it and its service answers. Without a map the sandbox has nothing there, and
    /// HAProxy refuses the script's line and the service it would have registered.
    func testALuaScriptIsReadThroughTheMap() throws {
        try folder.write([
            "public/lua/tea.lua": "core.register_service(\"tea\", \"http\", function(applet)\n    applet:set_status(418)\n    applet:start_response()\nend)\n"
        ])
        let config =
            head.replacingOccurrences(of: "    daemon\n", with: "    daemon\n    lua-load /usr/share/detour/lua/tea.lua\n")
            + "frontend www\n    bind :80\n" + pages
            + "    http-request use-service lua.tea if { path /tea }\n    default_backend app\n\nbackend app\n    server a 10.0.0.5:80\n"
        let mapped = try verify(config)
        XCTAssertFalse(try VerifyWorkspace.findings(mapped).contains { $0.hasPrefix("haproxy.syntax") }, mapped.stdout)
        let unmapped = try verify(config.replacingOccurrences(of: "/usr/share/detour/lua/", with: "/etc/haproxy/lua/"))
        XCTAssertEqual(unmapped.status, 1, unmapped.stdout + unmapped.stderr)
        XCTAssertEqual(try VerifyWorkspace.findings(unmapped), ["haproxy.syntax:8", "haproxy.syntax:21"], unmapped.stdout)
        XCTAssertTrue(unmapped.stdout.contains("/etc/haproxy/lua/tea.lua"), unmapped.stdout)
    }

    /// An SPOE agent (a WAF, as Coraza's example has it) and the `program` that starts it: the
    /// sandbox runs neither, and lets every probe through as an agent that finds nothing does;
    /// left in, the agent's silence sets its error variable and the configuration's own rule
    /// denies every probe with a 500, hiding the application's errors passing through.
    func testSPOEAgentsAndProgramsAreNotRunAndProbesPassAsTheyWouldThroughAQuietAgent() throws {
        try folder.write([
            "conf/coraza.cfg":
                "[coraza]\nspoe-agent coraza-agent\n    groups coraza-req\n    use-backend coraza-spoa\n\nspoe-group coraza-req\n    messages coraza-req\n\nspoe-message coraza-req\n    args app=str(sample_app) id=unique-id src-ip=src method=method path=path\n"
        ])
        let result = try verify(
            head + pages
                + """
                program coraza
                    command coraza-spoa -config /etc/coraza/config.yaml

                frontend www
                    bind :80
                    filter spoe engine coraza config coraza.cfg
                    http-request send-spoe-group coraza coraza-req
                    http-request deny deny_status 403 if { var(txn.coraza.action) -m str deny }
                    http-request deny deny_status 500 if { var(txn.coraza.error) -m int gt 0 }
                    default_backend app

                backend app
                    server a 10.0.0.5:80

                backend coraza-spoa
                    mode tcp
                    server agent 127.0.0.1:9000

                """)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 500")?.body, "the upstream's own body")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.body, "detour's public/errors/503.html")
        XCTAssertTrue(try VerifyWorkspace.findings(result).contains("haproxy.upstream-errors-pass-through:29"), result.stdout)
        let rewrites = try VerifyWorkspace.texts(result, "rewrites")
        for written in ["filter spoe engine coraza config coraza.cfg", "http-request send-spoe-group coraza coraza-req"] {
            XCTAssertTrue(
                rewrites.contains("\(written): SPOE agents are not run; the sandbox lets every probe through, as an agent that finds nothing does"),
                "\(rewrites)")
        }
        XCTAssertTrue(rewrites.contains("program coraza: the sandbox runs no outside process"), "\(rewrites)")
    }

    /// A server speaking TLS with no CA file to check its certificate against: the sandbox keeps
    /// its TLS, so HAProxy refuses it at its line; one with `verify none` behind TLS health checks
    /// keeps that, so the sandbox's run is not refused where the real one is not.
    func testTLSToAServerIsRefusedOnlyWhereHAProxyRefusesIt() throws {
        let site = "frontend www\n    bind :80\n    default_backend app\n\nbackend app\n    option tcp-check\n    tcp-check connect port 443 ssl\n"
        let unchecked = try verify(head + pages + site + "    server a 10.0.0.5:443 ssl\n")
        XCTAssertEqual(unchecked.status, 1, unchecked.stdout + unchecked.stderr)
        XCTAssertEqual(try VerifyWorkspace.findings(unchecked), ["haproxy.syntax:25"], unchecked.stdout)
        XCTAssertTrue(unchecked.stdout.contains("no CA file"), unchecked.stdout)
        let trusted = try verify(head + pages + site + "    server a 10.0.0.5:443 ssl verify none\n")
        XCTAssertEqual(try VerifyWorkspace.findings(trusted), ["haproxy.upstream-errors-pass-through:22"], trusted.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(trusted, "/", "not listening")?.status, 503, trusted.stdout)
    }
}
