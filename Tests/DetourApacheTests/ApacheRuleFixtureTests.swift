import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourApache

/// One folder per scenario in `Fixtures/apache`, named `<rule>[-variant]-hit|near-miss`: an
/// `apache.conf` that takes its folders and ports from the environment (`FIXTURE_ROOT`, …),
/// and the findings expected for it in `expected.txt`. Pages are `pages/errors`.
final class ApacheRuleFixtureTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/apache")

    static let rules: [String: String] = [
        "error-page-missing-file": "apache.error-page-missing-file",
        "error-document-url": "apache.error-document-url",
        "error-document-text": "apache.error-document-text",
        "error-page-proxied": "apache.error-page-proxied",
        "error-page-proxied-section": "apache.error-page-proxied",
        "error-page-proxied-rewrite": "apache.error-page-proxied",
        "upstream-errors-pass-through": "apache.upstream-errors-pass-through",
        "upstream-errors-pass-through-rewrite": "apache.upstream-errors-pass-through",
        "code-not-covered": "apache.code-not-covered",
        "code-not-covered-directory": "apache.code-not-covered",
        "code-not-covered-handler": "apache.code-not-covered",
        "code-not-covered-section": "apache.code-not-covered",
        "error-page-protected": "apache.error-page-protected",
        "error-page-protected-proxied": "apache.error-page-protected",
    ]
    static let fixtures = RuleFixtures(root: root, prefix: "apache.", rules: rules)

    /// The environment the configurations read their folders and ports from.
    static func environment(state: String = "/tmp", port: Int = 8080, upstream: Int = 9000) -> [String: String] {
        ["FIXTURE_ROOT": root.path, "FIXTURE_STATE": state, "FIXTURE_PORT": String(port), "FIXTURE_UPSTREAM": String(upstream)]
    }

    static func check(_ scenario: String) -> ProxyCheck.Report {
        ApacheChecker.check(
            .init(
                main: root.appendingPathComponent(scenario).appendingPathComponent("apache.conf"), mainDisplay: "\(scenario)/apache.conf",
                pages: root.appendingPathComponent("pages/errors"), maps: []
            ), environment: environment())
    }

    func testEveryScenarioReportsExactlyWhatIsRecorded() throws {
        try Self.fixtures.verify(
            catalogue: ApacheChecker.catalogue, mustHaveScenarios: ApacheChecker.rules.map { type(of: $0).about.id }, onlyTheRule: true,
            shown: { $0.replacingOccurrences(of: Self.root.path, with: "FIXTURE_ROOT") }
        ) {
            Self.check($0).diagnostics
        }
    }

    /// `apache2 -t` passes every scenario: what detour finds, Apache's own check does not.
    func testApacheItselfPassesEveryScenario() throws {
        let apache = try RequiredTool.find("apache2")
        let state = try TemporaryFolder()
        defer { state.remove() }
        for scenario in Self.fixtures.scenarios {
            let config = Self.root.appendingPathComponent(scenario).appendingPathComponent("apache.conf").path
            let environment = ProcessInfo.processInfo.environment.merging(Self.environment(state: state.path)) { _, new in new }
            let result = try ProcessRunner.run(apache, ["-t", "-f", config], environment: environment)
            XCTAssertEqual(result.status, 0, "\(scenario): \(result.stderr.suffix(300))")
        }
    }
}
