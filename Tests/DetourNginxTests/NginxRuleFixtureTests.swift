import DetourDiagnostics
import DetourNginx
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

/// One folder per scenario in `Fixtures/nginx`: `nginx.conf` and the findings expected
/// for it in `expected.txt` (re-record with RECORD_GOLDEN=1). Pages are the fixture's
/// `pages/errors`, installed on the server as `/srv/detour/errors`.
/// `real-world-mix` gathers constructs of real configurations (upstreams, maps, geo, caches,
/// limit_except, auth, `$status` targets): only its recorded findings may come out of it.
final class NginxRuleFixtureTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/nginx")

    /// Scenario name → the rule its hit must raise.
    static let rules: [String: String] = [
        "error-page-missing-file": "nginx.error-page-missing-file",
        "error-page-missing-file-path-as-uri": "nginx.error-page-missing-file",
        "error-page-missing-file-regex-alias": "nginx.error-page-missing-file",
        "error-page-missing-file-status-variable": "nginx.error-page-missing-file",
        "error-page-undefined-named-location": "nginx.error-page-undefined-named-location",
        "inherited-error-page-dropped": "nginx.inherited-error-page-dropped",
        "inherited-error-page-dropped-in-if": "nginx.inherited-error-page-dropped",
        "inherited-error-page-dropped-proxied-auth": "nginx.inherited-error-page-dropped",
        "upstream-errors-pass-through": "nginx.upstream-errors-pass-through",
        "auth-service-page": "nginx.auth-service-page",
        "intercepted-code-without-page": "nginx.intercepted-code-without-page",
        "error-page-proxied": "nginx.error-page-proxied",
        "error-page-proxied-missing-file": "nginx.error-page-proxied",
        "error-page-proxied-missing-file-if": "nginx.error-page-proxied",
        "error-page-proxied-rewrite": "nginx.error-page-proxied",
        "error-page-returned": "nginx.error-page-returned",
        "error-page-not-internal": "nginx.error-page-not-internal",
        "error-page-not-internal-server-root": "nginx.error-page-not-internal",
        "error-page-server-rewrite": "nginx.error-page-server-rewrite",
        "error-page-server-rewrite-return": "nginx.error-page-server-rewrite",
        "error-page-server-rewrite-rewrite": "nginx.error-page-server-rewrite",
        "error-page-soft-status": "nginx.error-page-soft-status",
        "error-page-soft-status-sign-in": "nginx.error-page-soft-status",
        // Proxied too: the application answers the page's own path while it fails another.
        "error-page-soft-status-proxied-page": "nginx.error-page-soft-status",
        "error-page-protected": "nginx.error-page-protected",
        "error-page-protected-lifted": "nginx.error-page-protected",
        "error-page-protected-own-refusal": "nginx.error-page-protected",
        // Its '=200' is no soft status while the password keeps the page from everyone.
        "error-page-protected-soft-status": "nginx.error-page-protected",
        // Its '504 =200' is no soft status: the page is asked of the upstream that did not answer in time.
        "error-page-proxied-soft-status-timeout": "nginx.error-page-proxied",
        "add-header-without-always": "nginx.add-header-without-always",
        "code-not-covered": "nginx.code-not-covered",
        "code-not-covered-other-location": "nginx.code-not-covered",
        "error-page-dynamic-target": "nginx.error-page-dynamic-target",
        "add-header-without-always-one-per-line": "nginx.add-header-without-always",
    ]

    /// Checked from the fixture folder, with paths relative to it as a user would type them.
    static func check(_ scenario: String) -> ProxyCheck.Report {
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(root.path)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let file = root.appendingPathComponent(scenario).appendingPathComponent("nginx.conf")
        return NginxChecker.check(
            .init(
                main: file, mainDisplay: "\(scenario)/nginx.conf",
                pages: root.appendingPathComponent("pages/errors"),
                maps: [PagePathMap(installPath: "/srv/detour", localPath: "pages")]
            ))
    }

    func testEveryScenarioReportsExactlyWhatIsRecorded() throws {
        let scenarios = try FileManager.default.contentsOfDirectory(atPath: Self.root.path).filter { $0 != "pages" }.sorted()
        XCTAssertEqual(Set(scenarios.filter { $0.hasSuffix("-hit") }.map { String($0.dropLast(4)) }), Set(Self.rules.keys))
        for (scenario, rule) in Self.rules {
            XCTAssertTrue(scenario.hasPrefix(rule.dropFirst("nginx.".count)), "\(scenario) is named after its rule, \(rule)")
        }
        for scenario in scenarios {
            let report = Self.check(scenario)
            let text = DiagnosticFormat.text.render(report.diagnostics, toolVersion: "test")
            let expectedFile = Self.root.appendingPathComponent(scenario).appendingPathComponent("expected.txt")
            if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
                try text.write(to: expectedFile, atomically: true, encoding: .utf8)
                continue
            }
            XCTAssertEqual(text, try String(contentsOf: expectedFile, encoding: .utf8), scenario)
            if scenario.hasSuffix("-hit"), let rule = Self.rules[String(scenario.dropLast(4))] {
                XCTAssertTrue(report.diagnostics.contains { $0.rule == rule }, "\(scenario) must raise \(rule)")
            }
            // Every finding is a rule of the catalogue, with the severity it lists.
            for diagnostic in report.diagnostics {
                let about = NginxChecker.catalogue.first { $0.id == diagnostic.rule }
                XCTAssertEqual(about?.severity, diagnostic.severity, "\(scenario): \(diagnostic.rule) as the catalogue lists it")
            }
            if scenario.hasSuffix("-near-miss") || scenario == "clean-server" {
                XCTAssertEqual(report.diagnostics, [], "\(scenario) must stay silent")
            }
        }
    }

    func testEveryFixtureIsValidForNginxItself() throws {
        let nginx = try RequiredTool.find("nginx")
        for scenario in try FileManager.default.contentsOfDirectory(atPath: Self.root.path).filter({ $0 != "pages" }) {
            let scratch = try TemporaryFolder()
            defer { scratch.remove() }
            let file = Self.root.appendingPathComponent(scenario).appendingPathComponent("nginx.conf")
            let result = try ProcessRunner.run(nginx, ["-t", "-p", scratch.path + "/", "-c", file.path, "-e", scratch.path + "/error.log"])
            XCTAssertEqual(result.status, 0, "\(scenario): \(result.stderr)")
        }
    }
}
