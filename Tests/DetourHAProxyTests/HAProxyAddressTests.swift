import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourHAProxy

/// Addresses, in every place HAProxy reads one while it reads the file: each keyword takes some
/// forms of the port part (a range, an offset, none) and of the socket (a datagram, a file
/// descriptor, a path) and refuses the others. Every form in every place is written into one
/// file, which the installed `haproxy -c` judges: check must refuse the same lines, in the
/// same words, but for what only the machine can tell (a host name's resolution, an inherited
/// socket); a QUIC address as the installed build's feature list says.
final class HAProxyAddressTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder.remove()
    }

    private static let hosts = [
        "", "*", "127.0.0.1", "::", "[::1]", "ipv4@127.0.0.1", "ipv6@::1", "udp@127.0.0.1", "tcp@", "stream+udp@127.0.0.1", "dgram+127.0.0.1",
        "unix@/tmp/detour.sock", "/tmp/detour.sock", "abns@detour", "fd@1", "fd@x", "sockpair@y", "uxdg@/tmp/d.sock",
        "/tmp/" + String(repeating: "a", count: 100), "quic4@", "quic6@[::1]",
    ]
    private static let ports = ["", ":", ":80", ":0", ":80-81", ":81-80", ":+1", ":-1", ":x", ":70000", ":1-", ":80a", ":$DETOUR_UNSET", ":${DETOUR_UNSET}"]

    /// Each place an address is read, by section: `{}` is the address, `#` a number that
    /// keeps names apart.
    private static let places: [(section: String, lines: [String])] = [
        ("global", ["log {} local0"]),
        ("frontend f", ["bind {}"]),
        (
            "backend b",
            [
                "server s# {}", "server t# 127.0.0.1:80 source {}", "server u# 127.0.0.1:80 socks4 {}", "server v# 127.0.0.1:80 addr {}",
                "source {}", "source 0.0.0.0 usesrc {}", "dispatch {}", "tcp-check connect addr {}", "http-check connect addr {}",
                "default-server source {}",
            ]
        ),
        ("resolvers r", ["nameserver n# {}"]),
        ("mailers m", ["mailer m# {}"]),
    ]

    /// What the machine, not the file, decides: not judged by check.
    private static let machineWords = ["cannot use file descriptor", "invalid address", "connect() not supported"]

    func testAddressesAreRefusedWhereHAProxyRefusesThemInItsWords() throws {
        var refusedInAll = 0
        var number = 0
        for place in Self.places {
            for line in place.lines {
                var written: [String] = []
                for host in Self.hosts {
                    // A path or a descriptor takes no port part; an empty address is no address.
                    let portless = host.contains("/") || host.hasPrefix("fd@") || host.hasPrefix("abns@") || host.hasPrefix("sockpair@")
                    for port in Self.ports where (!portless || port.isEmpty) && !(host + port).isEmpty {
                        number += 1
                        written.append(line.replacingOccurrences(of: "{}", with: host + port).replacingOccurrences(of: "#", with: "\(number)"))
                    }
                }
                // HAProxy stops at its 50th fatal error: a file each few dozen lines.
                for start in stride(from: 0, to: written.count, by: 40) {
                    refusedInAll += try compare(section: place.section, lines: Array(written[start..<min(start + 40, written.count)]))
                }
            }
        }
        XCTAssertGreaterThan(refusedInAll, 500, "haproxy -c refuses many of them")
    }

    /// Whether a build has QUIC is the installed haproxy's to say (`haproxy -vv`): reading for a
    /// version given, whose build is not known, a QUIC listener is not judged.
    func testAQUICListenerIsJudgedOnlyForTheInstalledBuild() throws {
        try folder.write(["haproxy.cfg": "frontend f\n    bind quic4@:443\n"])
        let installed = try ProcessRunner.run(try RequiredTool.find("haproxy"), ["-vv"]).stdout.contains("-QUIC")
        for version in [nil, "2.8"] {
            let refused = HAProxyChecker.check(
                .init(main: folder.url.appendingPathComponent("haproxy.cfg"), mainDisplay: "haproxy.cfg", pages: nil, maps: [], serverVersion: version),
                environment: [:]
            ).diagnostics.contains { $0.message.contains("QUIC is not compiled in") }
            XCTAssertEqual(refused, version == nil && installed, "reading for \(version ?? "the installed haproxy")")
        }
    }

    /// The lines of `section` that HAProxy refuses, each compared with check's refusal; how many.
    private func compare(section: String, lines: [String]) throws -> Int {
        let text = section + "\n" + lines.map { "    " + $0 + "\n" }.joined()
        try folder.write(["haproxy.cfg": text])
        let verdict = try ProcessRunner.run(try RequiredTool.find("haproxy"), ["-c", "-f", folder.path + "/haproxy.cfg"], environment: [:])
        // As verify reads it back: an alert goes on over the next lines (a server's option).
        var refused: [Int: String] = [:]
        let reading = HAProxyTestOutput.read(verdict.stdout + verdict.stderr, copies: [(folder.path + "/haproxy.cfg", "haproxy.cfg")], main: "haproxy.cfg")
        for finding in reading.findings where refused[finding.location.line] == nil {
            var message = finding.message
            while message.hasSuffix(".") { message.removeLast() }
            refused[finding.location.line] = message
        }
        let check = HAProxyChecker.check(
            .init(main: folder.url.appendingPathComponent("haproxy.cfg"), mainDisplay: "haproxy.cfg", pages: nil, maps: []),
            environment: [:]
        ).diagnostics
        var said: [Int: String] = [:]
        for finding in check where finding.rule == HAProxyRules.syntax.id && said[finding.location.line] == nil {
            said[finding.location.line] = finding.message.replacingOccurrences(of: ": HAProxy refuses the file", with: "")
        }
        let all = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (at, message) in refused.sorted(by: { $0.key < $1.key }) where !Self.machineWords.contains(where: message.contains) {
            XCTAssertEqual(said[at], message, "line \(at): \(all[at - 1])")
        }
        for (at, message) in said.sorted(by: { $0.key < $1.key }) where refused[at] == nil {
            XCTFail("line \(at): \(all[at - 1]): check refuses it (\(message)), haproxy -c takes it")
        }
        return refused.count
    }
}
