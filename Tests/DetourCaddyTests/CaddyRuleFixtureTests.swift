import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourCaddy

/// One folder per scenario in `Fixtures/caddy`, named `<rule>[-variant]-hit|near-miss`: a `Caddyfile` and the findings expected
/// for it in `expected.txt` (re-record with RECORD_GOLDEN=1). Pages are `pages/errors`,
/// installed on the server as `/srv/detour/errors`.
final class CaddyRuleFixtureTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/caddy")

    /// Scenario name → the rule its hit must raise.
    static let rules: [String: String] = [
        "error-page-missing-file": "caddy.error-page-missing-file",
        "handle-errors-without-response": "caddy.handle-errors-without-response",
        "upstream-errors-pass-through": "caddy.upstream-errors-pass-through",
        "upstream-errors-pass-through-handle": "caddy.upstream-errors-pass-through",
        "upstream-errors-pass-through-copy-response": "caddy.upstream-errors-pass-through",
        "code-not-covered-maintenance": "caddy.code-not-covered",
        "code-not-covered-forward-auth": "caddy.code-not-covered",
        "code-not-covered-static-only": "caddy.code-not-covered",
        "code-not-covered": "caddy.code-not-covered",
        "code-not-covered-matcher": "caddy.code-not-covered",
        "code-not-covered-fixed-answer": "caddy.code-not-covered",
        "error-page-soft-status": "caddy.error-page-soft-status",
        "error-status-as-message": "caddy.error-status-as-message",
        "respond-shadows-file-server": "caddy.respond-shadows-file-server",
        "respond-shadows-file-server-route": "caddy.respond-shadows-file-server",
        "error-page-protected": "caddy.error-page-protected",
        "error-page-protected-matcher": "caddy.error-page-protected",
        "error-page-protected-respond": "caddy.error-page-protected",
        "error-page-protected-import": "caddy.error-page-protected",
        "error-page-protected-proxied": "caddy.error-page-protected",
        "error-page-missing-file-try-files": "caddy.error-page-missing-file",
        "error-page-proxied": "caddy.error-page-proxied",
        "error-page-proxied-import": "caddy.error-page-proxied",
        "error-page-proxied-route": "caddy.error-page-proxied",
        "error-page-missing-file-handle-path": "caddy.error-page-missing-file",
    ]

    static func check(_ scenario: String) -> ProxyCheck.Report {
        CaddyChecker.check(
            .init(
                main: root.appendingPathComponent(scenario).appendingPathComponent("Caddyfile"), mainDisplay: "\(scenario)/Caddyfile",
                pages: root.appendingPathComponent("pages/errors"),
                maps: [PagePathMap(installPath: "/srv/detour", localPath: root.appendingPathComponent("pages").path)]
            ))
    }

    static let fixtures = RuleFixtures(root: root, prefix: "caddy.", rules: rules)
    static var scenarios: [String] { fixtures.scenarios }

    func testEveryScenarioReportsExactlyWhatIsRecorded() throws {
        try Self.fixtures.verify(catalogue: CaddyChecker.catalogue, shown: { $0.replacingOccurrences(of: Self.root.path + "/", with: "") }) {
            Self.check($0).diagnostics
        }
    }

    func testEveryFixtureIsValidForCaddyItself() throws {
        for scenario in Self.scenarios {
            let result = try CaddyAdapt.run("Caddyfile", in: Self.root.appendingPathComponent(scenario))
            XCTAssertEqual(result.status, 0, "\(scenario): \(result.stderr.suffix(400))")
        }
    }
}
