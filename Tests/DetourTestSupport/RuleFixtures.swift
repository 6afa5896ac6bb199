import DetourDiagnostics
import Foundation
import XCTest

/// A folder of rule scenarios, one folder each, named `<rule>[-variant]-hit` or
/// `<rule>-near-miss` (and `clean-site`), each with the findings expected for it in
/// `expected.txt` (re-recorded with RECORD_GOLDEN=1). `pages` holds the error pages they use.
public struct RuleFixtures: Sendable {
    public let root: URL
    /// `haproxy.`: what every rule id of the dialect starts with.
    public let prefix: String
    /// Scenario name (without `-hit`) → the rule its hit must raise.
    public let rules: [String: String]

    public init(root: URL, prefix: String, rules: [String: String]) {
        self.root = root
        self.prefix = prefix
        self.rules = rules
    }

    public var scenarios: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { $0 != "pages" }.sorted()
    }

    /// Every scenario reports exactly what is recorded; a hit raises its rule (and, with
    /// `onlyTheRule`, nothing else); a near miss and `clean-site` stay silent; each finding has
    /// its catalogue severity; every rule of `catalogue` that `mustHaveScenarios` names has a
    /// hit and a near miss. `findings` checks one scenario; `shown` makes the text portable.
    public func verify(
        catalogue: [RuleDescription], mustHaveScenarios: [String] = [], onlyTheRule: Bool = false,
        shown: (String) -> String = { $0 }, findings: (String) -> [Diagnostic],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(Set(scenarios.filter { $0.hasSuffix("-hit") }.map { String($0.dropLast(4)) }), Set(rules.keys), file: file, line: line)
        for (scenario, rule) in rules {
            XCTAssertTrue(scenario.hasPrefix(rule.dropFirst(prefix.count)), "\(scenario) is named after its rule, \(rule)", file: file, line: line)
        }
        // The catalogue lists each rule once, and every rule that runs is in it.
        XCTAssertEqual(Set(catalogue.map(\.id)).count, catalogue.count, "a rule id is listed twice", file: file, line: line)
        for rule in mustHaveScenarios {
            XCTAssertTrue(catalogue.contains { $0.id == rule }, "\(rule) is in the catalogue", file: file, line: line)
            XCTAssertTrue(rules.values.contains(rule), "\(rule) has a hit", file: file, line: line)
            XCTAssertTrue(
                scenarios.contains { $0.hasSuffix("-near-miss") && rule.hasSuffix($0.dropLast("-near-miss".count)) }, "\(rule) has a near miss", file: file,
                line: line)
        }
        for scenario in scenarios {
            let found = findings(scenario)
            let text = shown(DiagnosticFormat.text.render(found, toolVersion: "test"))
            let expectedFile = root.appendingPathComponent(scenario).appendingPathComponent("expected.txt")
            if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
                try text.write(to: expectedFile, atomically: true, encoding: .utf8)
                continue
            }
            XCTAssertEqual(text, try String(contentsOf: expectedFile, encoding: .utf8), scenario, file: file, line: line)
            if scenario.hasSuffix("-hit"), let rule = rules[String(scenario.dropLast(4))] {
                if onlyTheRule {
                    XCTAssertEqual(Set(found.map(\.rule)), [rule], "\(scenario) raises \(rule) and nothing else", file: file, line: line)
                } else {
                    XCTAssertTrue(found.contains { $0.rule == rule }, "\(scenario) must raise \(rule)", file: file, line: line)
                }
            }
            if scenario.hasSuffix("-near-miss") || scenario == "clean-site" {
                XCTAssertEqual(found, [], "\(scenario) must stay silent", file: file, line: line)
            }
            for diagnostic in found {
                XCTAssertEqual(
                    catalogue.first { $0.id == diagnostic.rule }?.severity, diagnostic.severity, "\(scenario): \(diagnostic.rule)", file: file, line: line)
            }
        }
    }
}
