import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourHAProxy

/// `log` lines, in the global section and in a proxy: refused by check where `haproxy -c`
/// refuses them (an unknown facility, level or format, a length out of range, a word too many, a
/// missing facility, `log global` in the global section), and taken where it takes them.
final class HAProxyLogLineTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder.remove()
    }

    private static let lines = [
        "log 127.0.0.1:514 local0", "log 127.0.0.1:514 profile", "log 127.0.0.1:514 len 10 local0", "log 127.0.0.1:514 format json local0",
        "log 127.0.0.1:514 local0 info notice", "log 127.0.0.1:514 local0 infos", "log 127.0.0.1:514 local0 info notic",
        "log 127.0.0.1:514 local0 info notice x", "log global", "log 127.0.0.1:514", "log stdout format raw daemon",
        "log 127.0.0.1 len 2048 format rfc5424 sample 1:2 local1 err",
    ]

    private func refused(_ config: String, line: Int) throws -> (haproxy: Bool, check: Bool) {
        try folder.write(["haproxy.cfg": config])
        let verdict = try ProcessRunner.run(try RequiredTool.find("haproxy"), ["-c", "-f", folder.path + "/haproxy.cfg"])
        let check = HAProxyChecker.check(
            .init(main: folder.url.appendingPathComponent("haproxy.cfg"), mainDisplay: "haproxy.cfg", pages: nil, maps: [], serverVersion: "2.6"),
            environment: [:]
        ).diagnostics.contains { $0.rule == HAProxyRules.syntax.id && $0.location.line == line }
        return ((verdict.stdout + verdict.stderr).contains("haproxy.cfg:\(line)]"), check)
    }

    func testLogLinesAreRefusedWhereHAProxyRefusesThem() throws {
        let proxies = "defaults\n    mode http\n    timeout connect 1s\n    timeout client 1s\n    timeout server 1s\nfrontend web\n    bind 127.0.0.1:1\n"
        var refusedSomewhere = 0
        for line in Self.lines {
            let global = try refused("global\n    \(line)\n" + proxies, line: 2)
            XCTAssertEqual(global.check, global.haproxy, "global: \(line)")
            let proxy = try refused(proxies + "    \(line)\n", line: 8)
            XCTAssertEqual(proxy.check, proxy.haproxy, "frontend: \(line)")
            refusedSomewhere += global.haproxy || proxy.haproxy ? 1 : 0
        }
        XCTAssertEqual(refusedSomewhere, 8, "the lines HAProxy refuses in one place or the other")
    }
}
