import DetourDiagnostics
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourVarnish

/// One folder per scenario in `Fixtures/varnish`, named `<rule>[-variant]-hit|near-miss`, with
/// the findings expected in `expected.txt`. Pages are `pages/errors`.
final class VarnishRuleFixtureTests: XCTestCase {
    static let rules: [String: String] = [
        "error-page-missing-file": "varnish.error-page-missing-file",
        "code-not-covered": "varnish.code-not-covered",
        "code-not-covered-synth": "varnish.code-not-covered",
        "code-not-covered-request-choice": "varnish.code-not-covered",
        "error-page-soft-status": "varnish.error-page-soft-status",
        "upstream-errors-pass-through": "varnish.upstream-errors-pass-through",
        "upstream-errors-pass-through-pipe": "varnish.upstream-errors-pass-through",
        "error-cached": "varnish.error-cached",
    ]
    static let fixtures = RuleFixtures(root: VarnishFixture.root, prefix: "varnish.", rules: rules)

    func testEveryScenarioReportsExactlyWhatIsRecorded() throws {
        try Self.fixtures.verify(
            catalogue: VarnishChecker.catalogue, mustHaveScenarios: VarnishChecker.rules.map { type(of: $0).about.id }, onlyTheRule: true,
            shown: { $0.replacingOccurrences(of: VarnishFixture.root.path, with: "FIXTURE_ROOT") }
        ) {
            VarnishFixture.check($0).diagnostics
        }
    }

    /// `varnishd -C` compiles every scenario: what detour finds, Varnish's own check does not.
    func testVarnishItselfCompilesEveryScenario() throws {
        let varnishd = try RequiredTool.find("varnishd")
        let state = try TemporaryFolder()
        defer { state.remove() }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: state.path)
        for scenario in Self.fixtures.scenarios {
            let file = try VarnishFixture.runnable(scenario, upstream: 8000, in: state.url)
            let result = try ProcessRunner.run(varnishd, ["-C", "-f", file.path, "-n", state.path + "/\(scenario)"])
            XCTAssertEqual(result.status, 0, "\(scenario): \(result.stderr.suffix(400))")
        }
    }

    /// The coverage table names the file that answers each code Varnish raises.
    func testTheCleanSiteAnswersEveryCodeWithItsPage() {
        let report = VarnishFixture.check("clean-site")
        XCTAssertEqual(report.coverage.count, 1)
        let answers = Dictionary(uniqueKeysWithValues: report.coverage[0].answers.map { ($0.code, $0.answer) })
        XCTAssertEqual(answers[503], "/fixture/pages/errors/503.html")
        XCTAssertEqual(answers[500], "/fixture/pages/errors/500.html", "the backend's own 500 is routed to vcl_backend_error")
        XCTAssertEqual(report.files, ["clean-site/varnish.vcl"])
    }
}
