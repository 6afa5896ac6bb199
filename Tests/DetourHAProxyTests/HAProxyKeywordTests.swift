import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourHAProxy

/// The keywords a section does not take, and those HAProxy no longer supports: refused at their
/// lines in HAProxy's words, all in one run, as `haproxy -c` refuses them; the version read for
/// decides which.
final class HAProxyKeywordTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder.remove()
    }

    private func check(_ config: String, version: String? = nil) throws -> [Diagnostic] {
        try folder.write(["haproxy.cfg": config])
        return HAProxyChecker.check(
            .init(main: folder.url.appendingPathComponent("haproxy.cfg"), mainDisplay: "haproxy.cfg", pages: nil, maps: [], serverVersion: version),
            environment: [:]
        ).diagnostics
    }

    /// The lines `haproxy -c` names in its alerts.
    private func refusedLines() throws -> [Int] {
        let haproxy = try RequiredTool.find("haproxy")
        let verdict = try ProcessRunner.run(haproxy, ["-c", "-f", folder.path + "/haproxy.cfg"])
        let pattern = try NSRegularExpression(pattern: #"\[ALERT\].*haproxy\.cfg:(\d+)\]"#)
        let output = verdict.stdout + verdict.stderr
        return pattern.matches(in: output, range: NSRange(output.startIndex..., in: output)).compactMap { match in
            Range(match.range(at: 1), in: output).flatMap { Int(output[$0]) }
        }
    }

    /// What every proxy below takes: HTTP, and timeouts haproxy -c does not warn of.
    private static let defaults = "defaults\n    mode http\n    timeout connect 1s\n    timeout client 1s\n    timeout server 1s\n"

    private static let config = """
        global
            daemon
            nbproc 2
            tune.bufsize 16384
        defaults
            mode http
            timeout connect 1s
            timeout client 1s
            timeout server 1s
            option httplog
            no option http-server-close
        frontend web
            bind 127.0.0.1:1
            reqadd X-Forwarded-Proto:\\ https
            rspidel ^Server:.*
            option http-tunnel
            no option forceclose
            option forwardfor
            capture request header Host len 32
            acl-typo local src 127.0.0.1
            default_backend app
        backend app
            redispatch
            option redispatch
            option tcpka
            option bogus-option
            http-request set-header X-A b
            server s1 127.0.0.1:9
        userlist admins
            user admin insecure-password secret
            username other

        """

    func testKeywordsASectionDoesNotTakeAreRefusedInHAProxysWords() throws {
        let found = try check(Self.config)
        XCTAssertEqual(found.map(\.rule), Array(repeating: "haproxy.directive", count: found.count))
        XCTAssertEqual(found.map(\.location.line), [3, 14, 15, 16, 17, 20, 23, 26, 31])
        XCTAssertEqual(found.map(\.location.line), try refusedLines(), "haproxy -c refuses the same lines")
        let messages = found.map(\.message)
        XCTAssertTrue(messages[1].hasPrefix("The 'reqadd' directive is not supported anymore since HAProxy 2.1. Use 'http-request add-header' instead."))
        XCTAssertTrue(messages[5].hasPrefix("unknown keyword 'acl-typo' in 'frontend' section"))
        XCTAssertTrue(messages[7].hasPrefix("unknown option 'bogus-option'"))
        XCTAssertTrue(messages[8].hasPrefix("unknown keyword 'username' in 'users' section"), messages[8])
        XCTAssertEqual(found[0].notes.first?.message.hasPrefix("read as HAProxy 2.6"), true)
    }

    func testTheVersionReadForDecidesWhichAreRefused() throws {
        // A newer HAProxy takes keywords 2.6 does not: only those HAProxy removed stay refused.
        XCTAssertEqual(try check(Self.config, version: "2.8").map(\.location.line), [3, 14, 15, 16, 17, 23])
        // An older one still takes some of those.
        XCTAssertEqual(try check(Self.config, version: "2.0").map(\.location.line), [])
        XCTAssertEqual(try check(Self.config, version: "2.6.12").count, 9)
        XCTAssertEqual(
            HAProxyVersionSource().note.message, "read as HAProxy 2.6: the installed haproxy is 2.6; --haproxy-version reads for another",
            "haproxy 2.6 is installed for the tests")
        XCTAssertEqual(HAProxyVersionSource.Version("HAProxy version 2.6.12-1+deb12u4 2026/10/17 - https://haproxy.org/")?.description, "2.6")
        XCTAssertNil(HAProxyVersionSource.Version("newest"))
    }

    func testANameWithACharacterHAProxyDoesNotAllowIsRefused() throws {
        let config =
            Self.defaults + """
                frontend www.example.com:80/site
                    bind 127.0.0.1:1
                    acl is-ok_1.a:b path_beg /
                    acl bad!name path_beg /
                    default_backend app
                backend app
                    server app-1.a:b_c 127.0.0.1:9
                    server app/2 127.0.0.1:9

                """
        let found = try check(config)
        XCTAssertEqual(found.map(\.location.line), [6, 9, 13])
        XCTAssertEqual(found.map(\.location.line), try refusedLines(), "haproxy -c refuses the same lines")
        XCTAssertEqual(
            found.map(\.message),
            [
                "character '/' is not permitted in 'frontend' name 'www.example.com:80/site': HAProxy refuses the file",
                "character '!' is not permitted in acl name 'bad!name': HAProxy refuses the file",
                "character '/' is not permitted in server name 'app/2': HAProxy refuses the file",
            ])
    }

    /// A proxy's mode: 2.6 takes `http` and `tcp` only (a RADIUS example's `mode udp`, a 1.x
    /// `mode health`); a newer HAProxy also takes `log` and `spop`.
    func testAModeHAProxyDoesNotKnowIsRefused() throws {
        let config =
            Self.defaults + """
                frontend radius
                    mode udp
                    bind 127.0.0.1:1
                    default_backend app
                listen health
                    mode health
                    bind 127.0.0.1:2
                backend app
                    mode tcp
                    server s1 127.0.0.1:9
                backend logs
                    mode log

                """
        let found = try check(config)
        XCTAssertEqual(found.map(\.location.line), [7, 11, 17])
        XCTAssertEqual(found.map(\.location.line), try refusedLines(), "haproxy -c refuses the same lines")
        XCTAssertEqual(found.first?.message, "unknown proxy mode 'udp': HAProxy refuses the file")
        XCTAssertEqual(try check(config, version: "3.2").map(\.location.line), [7, 11], "a newer HAProxy takes mode log")
    }

    /// A timeout HAProxy does not have (1.x's `contimeout`, a misspelt name) is refused at its
    /// line, every one, as `haproxy -c` refuses them.
    func testATimeoutHAProxyDoesNotHaveIsRefused() throws {
        let config =
            Self.defaults + """
                frontend web
                    bind 127.0.0.1:1
                    timeout contimeout 5s
                    timeout client-fin 5s
                    timeout clinet 5s
                    default_backend app
                backend app
                    timeout tunnel 1h
                    server s1 127.0.0.1:9

                """
        let found = try check(config)
        XCTAssertEqual(found.map(\.location.line), [8, 10])
        XCTAssertEqual(found.map(\.location.line), try refusedLines(), "haproxy -c refuses the same lines")
        XCTAssertTrue(found.first?.message.hasPrefix("the 'contimeout' directive is not supported anymore since HAProxy 2.1. Use 'timeout connect'.") == true)
    }

    /// A condition's ACL must be declared above it in its proxy, or be one HAProxy knows (a
    /// copied rule naming an ACL the copy left out): HAProxy stops at the first it cannot find;
    /// a negated anonymous ACL, `OR` and the predefined ones are not names to find.
    func testAConditionNamingAnUndeclaredACLIsRefused() throws {
        let config =
            Self.defaults + """
                frontend web
                    bind 127.0.0.1:1
                    acl is_api path_beg /api
                    http-request deny if !{ ssl_fc } !is_api OR METH_POST
                    redirect scheme https code 301 if !{ ssl_fc } is_legacy
                    acl is_legacy path_beg /old
                    default_backend app
                backend app
                    server s1 127.0.0.1:9

                """
        let found = try check(config)
        XCTAssertEqual(found.map(\.location.line), [10])
        XCTAssertEqual(try refusedLines(), [10], "haproxy -c stops at the same line")
        XCTAssertEqual(found.first?.message, "no such ACL : 'is_legacy': HAProxy refuses the file and stops reading it")
    }

    /// What follows a defaults section's name on its line is ignored (a generated file's
    /// `defaults mydefaults    mode http`); after a frontend's name it is refused.
    func testWordsAfterADefaultsNameAreIgnored() throws {
        let config =
            "defaults mydefaults    mode http\n    timeout connect 1s\n    timeout client 1s\n    timeout server 1s\nfrontend web :80\n    bind 127.0.0.1:1\n"
        XCTAssertEqual(try check(config).map(\.location.line), [5, 6])
        XCTAssertEqual(try refusedLines(), [5, 6], "haproxy -c refuses the frontend's line and what it would have held")
    }

    /// verify names what `haproxy -c` says of them as check does.
    func testVerifyReadsHAProxysRefusalsAsTheseRules() {
        let output = """
            [ALERT]    (1) : config : parsing [/tmp/x/haproxy.cfg:3] : unknown keyword 'foo' in 'global' section
            [ALERT]    (1) : config : parsing [/tmp/x/haproxy.cfg:5] : The 'reqadd' directive is not supported anymore since HAProxy 2.1.
            [ALERT]    (1) : config : parsing [/tmp/x/haproxy.cfg:6] : unknown option 'bogus'.
            [ALERT]    (1) : config : [/tmp/x/haproxy.cfg:8] : parsing [/tmp/x/haproxy.cfg:8] : 'server' not allowed because frontend 'web' has no backend capability.
            [ALERT]    (1) : config : parsing [/tmp/x/haproxy.cfg:9] : character '/' is not permitted in server name 'a/b'.
            [ALERT]    (1) : config : http frontend 'web' (/tmp/x/haproxy.cfg:21) tries to use incompatible tcp backend 'acme' (/tmp/x/haproxy.cfg:37) in a 'use_backend' rule (see 'mode').
            [ALERT]    (1) : config : [/tmp/x/haproxy.cfg:40] : 'server b/s2' :
              'usesrc 0.0.0.1:+1' : port offset not permitted here in '0.0.0.1:+1'

            .
            [ALERT]    (1) : config : error encountered while processing 'usesrc'.
            """
        let reading = HAProxyTestOutput.read(output, copies: [("/tmp/x/haproxy.cfg", "haproxy.cfg")], main: "haproxy.cfg")
        XCTAssertEqual(
            reading.findings.map { "\($0.location.path):\($0.location.line) \($0.rule)" },
            [
                "haproxy.cfg:3 haproxy.directive", "haproxy.cfg:5 haproxy.directive", "haproxy.cfg:6 haproxy.directive", "haproxy.cfg:8 haproxy.directive",
                "haproxy.cfg:9 haproxy.syntax",
                // Found once the files are read: at the section HAProxy names first.
                "haproxy.cfg:21 haproxy.syntax",
                // A server option's refusal goes on over the next lines; the parser's
                // summary after it names no place and no fault of its own.
                "haproxy.cfg:40 haproxy.syntax",
            ])
        XCTAssertEqual(
            reading.findings.last?.message, "'server b/s2' : 'usesrc 0.0.0.1:+1' : port offset not permitted here in '0.0.0.1:+1'.",
            "the whole alert, as haproxy -c wrote it over three lines")
    }

    func testABackendsKeywordInAFrontendIsRefusedAFrontendsInABackendIgnored() throws {
        // HAProxy refuses `server` in a frontend, and warns of `bind` in a backend and ignores it.
        let config =
            Self.defaults + """
                frontend web
                    bind 127.0.0.1:1
                    server s0 127.0.0.1:8
                    default_backend app
                backend app
                    bind 127.0.0.1:2
                    server s1 127.0.0.1:9

                """
        let found = try check(config)
        XCTAssertEqual(found.map(\.location.line), [8])
        XCTAssertEqual(
            found.first?.message.hasPrefix("'server' not allowed because frontend 'web' has no backend capability."), true, found.first?.message ?? "")
        XCTAssertEqual(try refusedLines(), [8])
    }
}
