import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourHAProxy

/// A backend's `option external-check` needs `external-check` in the global section: without it
/// `haproxy -c` refuses the file, naming the proxy, and check refuses it at the proxy's line.
final class HAProxyExternalCheckTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder.remove()
    }

    private static func config(global: String) -> String {
        """
        global
        \(global)
        defaults
            mode tcp
            timeout connect 1s
            timeout client 1s
            timeout server 1s
        frontend db
            bind 127.0.0.1:1
            default_backend db
        backend db
            option external-check
            external-check command /bin/true
            server s1 127.0.0.1:9 check

        """
    }

    private func results(_ config: String) throws -> (haproxy: String, check: [Diagnostic]) {
        try folder.write(["haproxy.cfg": config])
        let verdict = try ProcessRunner.run(try RequiredTool.find("haproxy"), ["-c", "-f", folder.path + "/haproxy.cfg"])
        let check = HAProxyChecker.check(
            .init(main: folder.url.appendingPathComponent("haproxy.cfg"), mainDisplay: "haproxy.cfg", pages: nil, maps: [], serverVersion: "2.6"),
            environment: [:]
        ).diagnostics.filter { $0.rule == HAProxyRules.syntax.id }
        return (verdict.stdout + verdict.stderr, check)
    }

    func testAnExternalCheckWithoutTheGlobalSettingIsRefused() throws {
        let refused = try results(Self.config(global: "    maxconn 100"))
        XCTAssertTrue(refused.haproxy.contains("Proxy 'db' : 'option external-check' unable to find required 'global.external-check'"), refused.haproxy)
        XCTAssertEqual(refused.check.map(\.location.line), [11], "\(refused.check)")
        XCTAssertTrue(refused.check.first?.message.contains("unable to find required 'global.external-check'") ?? false)
        let allowed = try results(Self.config(global: "    external-check\n    insecure-fork-wanted"))
        XCTAssertFalse(allowed.haproxy.contains("[ALERT]"), allowed.haproxy)
        XCTAssertEqual(allowed.check.count, 0, "\(allowed.check)")
    }
}
