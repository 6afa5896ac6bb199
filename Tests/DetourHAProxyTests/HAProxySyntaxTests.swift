import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourHAProxy

/// HAProxy's quoting, escapes, environment variables, `.if` blocks and refusals, and bad
/// input that must end in a located finding, never a crash or a hang.
final class HAProxySyntaxTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        let body = "<h1>down</h1>"
        try folder.write(["pages/503.http": "HTTP/1.0 503 Service Unavailable\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"])
    }

    override func tearDown() {
        folder.remove()
    }

    private func check(_ config: String, environment: [String: String] = [:]) throws -> ProxyCheck.Report {
        try folder.write(["haproxy.cfg": config])
        return HAProxyChecker.check(
            .init(main: folder.url.appendingPathComponent("haproxy.cfg"), mainDisplay: "haproxy.cfg", pages: nil, maps: []), environment: environment)
    }

    private func lines(_ report: ProxyCheck.Report) -> [String] {
        report.diagnostics.map { "\($0.location.description): \($0.rule)" }
    }

    func testQuotesEscapesAndEnvironment() throws {
        let clean = try check(
            """
            defaults # a comment after a section
                mode http
            frontend web
                bind 127.0.0.1:8080
                errorfile 503 "${PAGES}/503.http" # the folder from the environment
                errorfile 504 '${PAGES}/504.http'
            frontend defaulted
                errorfile 503 "${MISSING-pages}/503.http"
            frontend escaped
                errorfile 503 pages/5\\x303.http
                errorfile 504 pages/5\\04.http


            """, environment: ["PAGES": "pages"])
        // The single-quoted path keeps its `${PAGES}`, and `\0` is no escape: neither names a file.
        XCTAssertEqual(lines(clean), ["haproxy.cfg:6:19: haproxy.error-page-missing-file", "haproxy.cfg:11:19: haproxy.error-page-missing-file"])
        XCTAssertTrue(clean.diagnostics[0].message.contains("'${PAGES}/504.http'"), clean.diagnostics[0].message)
        XCTAssertTrue(clean.diagnostics[1].message.contains("'pages/5\\04.http'"), clean.diagnostics[1].message)
    }

    /// Every file a rule names is opened when HAProxy starts: a missing one is found wherever it is.
    func testEveryRuleFileIsChecked() throws {
        let report = try check(
            """
            defaults
                mode http
            backend app
                http-request return status 503 content-type text/html lf-file pages/missing-503.lf if { nbsrv eq 0 }
                http-response return status 500 content-type text/html file pages/missing-500.html if { status 500 }
                http-error status 504 content-type text/html file pages/missing-504.html
                server app1 127.0.0.1:9000

            """)
        XCTAssertEqual(
            lines(report),
            [
                "haproxy.cfg:4:67: haproxy.error-page-missing-file", "haproxy.cfg:5:65: haproxy.error-page-missing-file",
                "haproxy.cfg:6:55: haproxy.error-page-missing-file",
            ])
    }

    func testConditionalBlocks() throws {
        let config = """
            defaults
                mode http
            frontend web
            .if defined(USE_PAGES)
                errorfile 503 pages/503.http
            .elif version_atleast(2.4)
                errorfile 503 pages/absent.http
            .else
                errorfile 503 pages/never.http
            .endif

            """
        XCTAssertEqual(lines(try check(config, environment: ["USE_PAGES": "1"])), [])
        XCTAssertEqual(lines(try check(config)), ["haproxy.cfg:7:19: haproxy.error-page-missing-file"], "2.6 is at least 2.4")
    }

    /// An .alert a condition reaches stops HAProxy at its line; one it skips does nothing.
    /// The installed HAProxy judges each: its exit and the line it names.
    func testAnAlertTheConditionsReachIsARefusal() throws {
        let haproxy = try RequiredTool.find("haproxy")
        for (condition, environment) in [("!defined(DETOUR_PORT)", [:]), ("!defined(DETOUR_PORT)", ["DETOUR_PORT": "80"]), ("0 || !(1 && 0)", [:])] {
            let config = "global\n.if \(condition)\n    .alert \"DETOUR_PORT is required\"\n.endif\ndefaults\n    mode http\n"
            let ours = lines(try check(config, environment: environment))
            let result = try ProcessRunner.run(haproxy, ["-c", "-f", folder.url.appendingPathComponent("haproxy.cfg").path], environment: environment)
            let refused = (result.stdout + result.stderr).contains("haproxy.cfg:3]: 'DETOUR_PORT is required'")
            XCTAssertEqual(ours, refused ? ["haproxy.cfg:3:5: haproxy.syntax"] : [], "\(condition) with \(environment)")
        }
    }

    func testWhatHAProxyRefuses() throws {
        XCTAssertEqual(lines(try check("defaults\n    mode http")), ["haproxy.cfg:2:14: haproxy.syntax"], "no final line feed")
        XCTAssertEqual(lines(try check("frontend web\n    errorfile 503 \"pages/503.http\n")), ["haproxy.cfg:2:19: haproxy.syntax"])
        XCTAssertEqual(lines(try check("    mode http\nfrontend web\n")), ["haproxy.cfg:1:5: haproxy.syntax"])
        XCTAssertEqual(lines(try check(".if 1\nfrontend web\n")), ["haproxy.cfg:1:1: haproxy.syntax"])
        XCTAssertEqual(lines(try check(".endif\n")), ["haproxy.cfg:1:1: haproxy.syntax"])
        XCTAssertEqual(lines(try check("frontend web from nowhere\n")), ["haproxy.cfg:1:19: haproxy.syntax"])
        // HAProxy 1.x's address on the proxy's line: refused, and so is each line of the
        // section it would have opened; `from` without a defaults name too.
        XCTAssertEqual(
            lines(try check("listen stats :70\n    stats enable\n    stats uri /\nbackend b\n    mode http\n")),
            ["haproxy.cfg:1:1: haproxy.syntax", "haproxy.cfg:2:5: haproxy.syntax", "haproxy.cfg:3:5: haproxy.syntax"])
        XCTAssertEqual(lines(try check("backend b from\n")), ["haproxy.cfg:1:1: haproxy.syntax"])
        XCTAssertEqual(lines(try check("frontend web\n    errorfiles site-pages\n")), ["haproxy.cfg:2:16: haproxy.syntax"])
        XCTAssertEqual(lines(try check("frontend web\n    errorfile 505 pages/503.http\n")), ["haproxy.cfg:2:15: haproxy.errorfile-code"])
        // One named defaults section, named by one proxy and taken as the last by another,
        // in either order; one with rules, taken by a frontend and a backend.
        let shared = "defaults named\n    mode http\n"
        XCTAssertEqual(lines(try check(shared + "frontend f from named\nbackend b\n")), ["haproxy.cfg:4:1: haproxy.syntax"])
        XCTAssertEqual(lines(try check(shared + "backend b\nfrontend f from named\n")), ["haproxy.cfg:4:1: haproxy.syntax"])
        XCTAssertEqual(lines(try check(shared + "frontend f from named\nbackend b from named\n")), [], "no rules: shared by both")
        let ruled = shared + "    http-request set-var(txn.x) str(y)\n"
        XCTAssertEqual(lines(try check(ruled + "backend b from named\nfrontend f from named\n")), ["haproxy.cfg:5:1: haproxy.syntax"])
        XCTAssertEqual(lines(try check(ruled + "backend b from named\ndefaults\n    mode http\nfrontend f\n")), [])
    }

    func testALargeFileReadOnAllCoresKeepsItsLineNumbers() throws {
        // Past HAProxyLexer.parallelFrom, the file is read in parts; the refusals keep their place.
        var config = "defaults\n    mode http\n    option \"unclosed\n"
        var number = 3
        while config.utf8.count < HAProxyLexer.parallelFrom * 3 {
            config += "backend b\(number)\n    server s 127.0.0.1:9000\n"
            number += 2
        }
        config += "frontend web\n    errorfile 503 \"pages/503.http\n    mode http"
        XCTAssertEqual(
            lines(try check(config)),
            ["haproxy.cfg:3:12: haproxy.syntax", "haproxy.cfg:\(number + 2):19: haproxy.syntax", "haproxy.cfg:\(number + 3):14: haproxy.syntax"])
    }

    /// Rules and ACLs need a named defaults section to be shared: HAProxy refuses them in an
    /// anonymous one, and takes them in a named one that only frontends take (a listen
    /// section, both at once, cannot take one with rules).
    func testRulesInAnAnonymousDefaultsSectionAreRefused() throws {
        let haproxy = try RequiredTool.find("haproxy")
        let timeouts = "    timeout connect 1s\n    timeout client 1s\n    timeout server 1s\n"
        let rules = [
            "acl local src 127.0.0.1", "http-request deny", "http-response set-header X-A b", "http-after-response set-header X-A b",
            "tcp-request content accept",
        ]
        for rule in rules {
            let cases = [
                ("defaults", "frontend web\n    bind 127.0.0.1:1\n    default_backend b\n", "haproxy.cfg:3:5: haproxy.syntax"),
                ("defaults named", "frontend web\n    bind 127.0.0.1:1\n    default_backend b\n", nil),
                (
                    "defaults named", "listen web\n    bind 127.0.0.1:1\n    server s 127.0.0.1:9\n",
                    rule.hasPrefix("acl") ? nil : "haproxy.cfg:7:1: haproxy.syntax"
                ),
            ]
            for (header, proxy, refusal) in cases {
                let report = try check(
                    "\(header)\n    mode http\n    \(rule)\n\(timeouts)\(proxy)defaults plain\n    mode http\n\(timeouts)backend b\n    server s 127.0.0.1:9\n")
                XCTAssertEqual(lines(report), refusal.map { [$0] } ?? [], "\(header), \(proxy): \(rule)")
                let verdict = try ProcessRunner.run(haproxy, ["-c", "-f", folder.path + "/haproxy.cfg"])
                XCTAssertEqual(verdict.status != 0, refusal != nil, "\(header), \(proxy): \(rule): \(verdict.stdout + verdict.stderr)")
            }
        }
    }

    func testBadInputIsLocatedNeverACrash() throws {
        try folder.writeData("haproxy.cfg", Data([0x66, 0x72, 0x0A, 0x00, 0xFF, 0x0A]))
        let binary = HAProxyChecker.check(
            .init(main: folder.url.appendingPathComponent("haproxy.cfg"), mainDisplay: "haproxy.cfg", pages: nil, maps: []), environment: [:])
        XCTAssertEqual(lines(binary), ["haproxy.cfg:2:1: haproxy.syntax"])

        let deep = String(repeating: ".if 1\n", count: 5000) + "frontend web\n" + String(repeating: ".endif\n", count: 5000)
        XCTAssertEqual(lines(try check(deep)), [])
        let huge = "defaults\n    mode http\n" + (0..<20000).map { "backend b\($0)\n    server s 127.0.0.1:\($0 % 60000 + 1)\n" }.joined()
        XCTAssertEqual(try check(huge).diagnostics.count, 0)
        // Thousands of backends redirecting to one page through thousands of routes: each
        // page's route is decided once, not once per backend and route.
        let routed =
            "defaults\n    mode http\nfrontend web\n" + (0..<5000).map { "    use_backend b\($0) if { path_beg /a\($0)/ }\n" }.joined()
            + "    default_backend b0\n"
            + (0..<5000).map { "backend b\($0)\n    errorloc 503 /errors/503.html\n" }.joined()
        let redirects = try check(routed).diagnostics.filter { $0.rule == "haproxy.errorloc-redirect" }
        XCTAssertEqual(redirects.count, 5000)
        XCTAssertEqual(redirects.filter { $0.notes.first?.message.contains("back to backend 'b0'") == true }.count, 1, "only b0's own page loops")

        var random = SplitMix64(state: 13)
        let alphabet =
            Array("frontend backend defaults errorfile 503 \"'\\#${}\n .if .endif .else status { } http-response return file".utf8) + [0xC3, 0x28, 0x09]
        for round in 0..<300 {
            let bytes = (0..<Int(random.next() % 400)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            try folder.writeData("haproxy.cfg", Data(bytes))
            let report = HAProxyChecker.check(
                .init(main: folder.url.appendingPathComponent("haproxy.cfg"), mainDisplay: "haproxy.cfg", pages: nil, maps: []), environment: [:])
            for diagnostic in report.diagnostics {
                XCTAssertTrue(
                    diagnostic.location.path == "haproxy.cfg" || diagnostic.location.path.hasSuffix(".http") == false, "round \(round): \(diagnostic)")
                XCTAssertGreaterThanOrEqual(diagnostic.location.line, 1, "round \(round)")
            }
        }

        // Whole words, so routes, redirects, ACLs and conditions of any shape reach the rules.
        let starts = [
            "frontend f", "backend b", "listen l", "defaults", "    mode http", "    http-request redirect location /errors/503.html",
            "    http-request redirect location /%[path]",
            "    http-request deny", "    http-request auth", "    http-request tarpit", "    use_backend b", "    use_backend l", "    use_backend",
            "    default_backend b", "    acl a path_beg", "    errorloc 503 /errors/503.html",
        ]
        let words = [
            "/errors/", "{ path_beg /errors/ }", "!{ path_beg /errors/ }", "deny_status", "403", "if", "unless", "!", "!{", "{", "}", "||", "or", "a",
            "path_beg", "path", "-m", "beg", "-i", "-f", "--", "nbsrv(b)", "code", "303",
        ]
        let conditionWords = ["a", "!a", "{ path_beg /errors/ }", "!{ path_beg /errors/ }", "||", "or", "!", "{", "}"]
        var reached = Set<String>()
        for round in 0..<300 {
            var text = ""
            for _ in 0..<(random.next() % 30) {
                let start = starts[Int(random.next() % UInt64(starts.count))]
                text += start
                // A section's line takes its name only (HAProxy refuses more).
                var inCondition = false
                for _ in 0..<(random.next() % 8) {
                    // A condition names ACLs its proxy declared (HAProxy stops at one it did not).
                    let pool = inCondition ? conditionWords : words
                    let word = pool[Int(random.next() % UInt64(pool.count))]
                    if start.hasPrefix(" ") { text += " " + word }
                    inCondition = inCondition || word == "if" || word == "unless"
                }
                text += "\n"
                if !start.hasPrefix(" ") { text += "    acl a path_beg /a\n" }
            }
            let report = try check(text)
            XCTAssertTrue(report.diagnostics.allSatisfy { $0.location.line >= 1 }, "round \(round)")
            reached.formUnion(report.diagnostics.map(\.rule))
        }
        XCTAssertTrue(
            reached.isSuperset(of: ["haproxy.redirect-loop", "haproxy.error-page-protected", "haproxy.errorloc-redirect"]),
            "the rounds reach the rules: \(reached)")
    }
}
