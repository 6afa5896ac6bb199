import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourHAProxy

/// What HAProxy refuses about servers once it has read the file: TLS that checks its
/// certificate against no CA file, two servers of one proxy with one name. Each case is given to
/// the real `haproxy -c` too, and both name the same lines.
final class HAProxyServerVerifyTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder.remove()
    }

    private static let defaults = "defaults\n    mode http\n    timeout connect 1s\n    timeout client 1s\n    timeout server 1s\n"

    /// The lines detour refuses and the lines `haproxy -c` names in its alerts.
    private func refusedLines(_ config: String) throws -> (detour: [Int], haproxy: [Int]) {
        try folder.write(["haproxy.cfg": config])
        let ours = HAProxyChecker.check(
            .init(main: folder.url.appendingPathComponent("haproxy.cfg"), mainDisplay: "haproxy.cfg", pages: nil, maps: []), environment: [:]
        ).diagnostics.filter { $0.severity == .error }.map(\.location.line)
        let haproxy = try RequiredTool.find("haproxy")
        let verdict = try ProcessRunner.run(haproxy, ["-c", "-f", folder.path + "/haproxy.cfg"])
        let output = verdict.stdout + verdict.stderr
        let pattern = try NSRegularExpression(pattern: #"\[ALERT\].*haproxy\.cfg:(\d+)\]"#)
        let theirs = pattern.matches(in: output, range: NSRange(output.startIndex..., in: output)).compactMap { match in
            Range(match.range(at: 1), in: output).flatMap { Int(output[$0]) }
        }
        return (ours, theirs)
    }

    /// A name twice in one backend (a Nomad or Consul template's copied line): refused at the
    /// second, unless either server has an `id` of its own; the same name in two backends is
    /// not a conflict.
    func testTwoServersOfOneProxyWithOneNameAreRefused() throws {
        let lines = try refusedLines(
            Self.defaults + """
                backend nomad
                    server nomad 127.0.0.1:4646
                    server nomad 127.0.0.2:4646
                    server nomad 127.0.0.3:4646

                backend consul
                    server nomad 127.0.0.1:8500
                    server api 127.0.0.1:8501 id 7
                    server api 127.0.0.2:8501

                """)
        XCTAssertEqual(lines.haproxy, [8, 9])
        XCTAssertEqual(lines.detour, lines.haproxy)
    }

    /// What HAProxy refuses while reading comes together: a rule in an anonymous defaults
    /// section and a keyword it no longer supports; what it refuses once it has read the file
    /// (two servers with one name) is not reached.
    func testRefusalsWhileReadingComeTogetherAndStopBeforeTheRest() throws {
        let lines = try refusedLines(
            Self.defaults + """
                    http-response set-header X-Served-By haproxy

                backend app
                    redispatch
                    server a 127.0.0.1:8080
                    server a 127.0.0.2:8080

                """)
        XCTAssertEqual(lines.haproxy, [6, 9])
        XCTAssertEqual(lines.detour, lines.haproxy)
    }

    func testTLSWithoutACAFileIsRefusedWhereHAProxyRefusesIt() throws {
        let lines = try refusedLines(
            Self.defaults + """
                backend app
                    server plain 127.0.0.1:8080
                    server tls 127.0.0.1:8443 ssl
                    server trusted 127.0.0.1:8443 ssl verify none
                    server signed 127.0.0.1:8443 ssl ca-file /etc/ssl/certs/ca-certificates.crt
                    server checked 127.0.0.1:8443 check-ssl

                """)
        XCTAssertEqual(lines.haproxy, [8, 11])
        XCTAssertEqual(lines.detour, lines.haproxy)
    }

    /// default-server passes its words on, and its `ssl` makes HAProxy prepare TLS even for a
    /// server that says `no-ssl`; a `tcp-check connect … ssl` does for every server of its proxy.
    func testDefaultServerAndTCPChecksBringTLSIn() throws {
        let lines = try refusedLines(
            Self.defaults + """
                    default-server ssl verify none
                backend app
                    server trusted 127.0.0.1:8443
                    server required 127.0.0.1:8443 verify required
                    server off 127.0.0.1:8080 no-ssl verify required
                backend checked
                    option tcp-check
                    server plain 127.0.0.1:8080 no-ssl verify required
                    tcp-check connect ssl

                """)
        XCTAssertEqual(lines.haproxy, [9, 10, 13])
        XCTAssertEqual(lines.detour, lines.haproxy)
    }

    /// `ssl-server-verify none` turns the default off: only an explicit `verify required` refuses.
    func testTheGlobalDefaultDecidesWhatAServerWithoutVerifyDoes() throws {
        let lines = try refusedLines(
            "global\n    ssl-server-verify none\n" + Self.defaults + """
                backend app
                    server tls 127.0.0.1:8443 ssl
                    server required 127.0.0.1:8443 ssl verify required

                """)
        XCTAssertEqual(lines.haproxy, [10])
        XCTAssertEqual(lines.detour, lines.haproxy)
    }
}
