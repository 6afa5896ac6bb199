import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourHAProxy

/// One folder per scenario in `Fixtures/haproxy`, named `<rule>[-variant]-hit|near-miss`: a
/// `haproxy.cfg` whose page paths are relative to its folder, and the findings expected for it
/// in `expected.txt` (re-record with RECORD_GOLDEN=1). Pages are `pages/errors`.
final class HAProxyRuleFixtureTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/haproxy")

    /// Scenario name → the rule its hit must raise.
    static let rules: [String: String] = [
        "error-page-missing-file": "haproxy.error-page-missing-file",
        "errorfile-invalid": "haproxy.errorfile-invalid",
        "errorfile-invalid-length": "haproxy.errorfile-invalid",
        "errorfile-invalid-bare": "haproxy.errorfile-invalid",
        "errorfile-status-line": "haproxy.errorfile-status-line",
        "errorfile-oversized": "haproxy.errorfile-oversized",
        "code-not-covered": "haproxy.code-not-covered",
        "code-not-covered-tcp-frontend": "haproxy.code-not-covered",
        "code-not-covered-redirect-guarded": "haproxy.code-not-covered",
        "code-not-covered-stats": "haproxy.code-not-covered",
        "upstream-errors-pass-through": "haproxy.upstream-errors-pass-through",
        "upstream-errors-pass-through-status-set": "haproxy.upstream-errors-pass-through",
        "error-page-replaced": "haproxy.error-page-replaced",
        "errorloc-redirect": "haproxy.errorloc-redirect",
        "errorloc-redirect-routed": "haproxy.errorloc-redirect",
        "errorloc-redirect-host": "haproxy.errorloc-redirect",
        "error-page-protected": "haproxy.error-page-protected",
        "error-page-protected-backend": "haproxy.error-page-protected",
        "redirect-loop": "haproxy.redirect-loop",
    ]

    /// What `haproxy -c` (2.6) says of each hit: the faults it refuses, and those it passes.
    static let refusedByHAProxy: Set<String> = ["error-page-missing-file-hit", "errorfile-invalid-length-hit", "errorfile-invalid-bare-hit"]

    static let fixtures = RuleFixtures(root: root, prefix: "haproxy.", rules: rules)

    static func check(_ scenario: String) -> ProxyCheck.Report {
        HAProxyChecker.check(
            .init(
                main: root.appendingPathComponent(scenario).appendingPathComponent("haproxy.cfg"), mainDisplay: "\(scenario)/haproxy.cfg",
                pages: root.appendingPathComponent("pages/errors"), maps: []
            ), environment: [:])
    }

    func testEveryScenarioReportsExactlyWhatIsRecorded() throws {
        try Self.fixtures.verify(catalogue: HAProxyChecker.catalogue, mustHaveScenarios: HAProxyChecker.rules.map { type(of: $0).about.id }, onlyTheRule: true)
        {
            Self.check($0).diagnostics
        }
    }

    /// The real `haproxy -c` on every scenario, run from its folder as the paths expect:
    /// it refuses exactly the faults recorded as refused, and passes every other one.
    func testHAProxyItselfPassesWhatDetourMustCatch() throws {
        let haproxy = try RequiredTool.find("haproxy")
        for scenario in Self.fixtures.scenarios {
            let folder = Self.root.appendingPathComponent(scenario)
            let result = try ProcessRunner.run(haproxy, ["-c", "-f", "haproxy.cfg"], in: folder)
            if Self.refusedByHAProxy.contains(scenario) {
                XCTAssertNotEqual(result.status, 0, "\(scenario): haproxy -c refuses it")
            } else {
                XCTAssertEqual(result.status, 0, "\(scenario): haproxy -c passes it, so only detour check finds the fault: \(result.stderr.suffix(300))")
            }
        }
    }
}
