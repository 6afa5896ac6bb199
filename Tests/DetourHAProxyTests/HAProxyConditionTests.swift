import DetourTestSupport
import Foundation
import XCTest

@testable import DetourHAProxy

/// `.if version_atleast(…)` and `version_before(…)` as the installed HAProxy decides them:
/// generated version strings, each asked of `haproxy -c` through a `.notice` in each branch.
final class HAProxyConditionTests: XCTestCase {
    func testVersionsAreReadAsHAProxyReadsThem() {
        XCTAssertEqual(HAProxyCondition.parse("3.1-dev8"), [3, 1, 0, 0, 1, 8, 0])
        XCTAssertEqual(HAProxyCondition.parse("1.5-dev18-43"), [1, 5, 0, 0, 1, 18, 43])
        XCTAssertEqual(HAProxyCondition.parse("1.3.16-rc1"), [1, 3, 16, 0, 2, 1, 0])
        XCTAssertEqual(HAProxyCondition.parse("2.4-dev18-f6818d-20"), [2, 4, 0, 0, 1, 18, 20])
        XCTAssertNil(HAProxyCondition.parse("2.6/1"))
    }

    func testGeneratedVersionConditionsAgreeWithHAProxy() throws {
        let haproxy = try RequiredTool.find("haproxy")
        var random = SplitMix64(state: 0x6A09_E667)
        let tails = ["", "-dev", "-dev3", "-rc1", "-pre2", "-dev8-12", "-12", "-x", "-", ".0", ".1.2", "-rc"]
        var versions: [String] = ["2.6", "2.6.12", "2.6.13", "2.6.11", "2.6-dev8", "3.1-dev8", "2", "3"]
        for _ in 0..<200 {
            let parts = (0..<Int.random(in: 1...3, using: &random)).map { index in
                String(index == 0 ? Int.random(in: 1...3, using: &random) : Int.random(in: 0...14, using: &random))
            }
            versions.append(parts.joined(separator: ".") + tails.randomElement(using: &random)!)
        }
        let state = try TemporaryFolder()
        defer { state.remove() }
        var config = ""
        for (index, version) in versions.enumerated() {
            for function in ["version_atleast", "version_before"] {
                config += ".if \(function)(\(version))\n.notice \"\(index) \(function) true\"\n.else\n.notice \"\(index) \(function) false\"\n.endif\n"
            }
        }
        try state.write(["haproxy.cfg": config])
        let result = try ProcessRunner.run(haproxy, ["-c", "-f", state.path + "/haproxy.cfg"])
        let output = result.stdout + result.stderr
        XCTAssertTrue(output.contains(" true'") && output.contains(" false'"), "the versions reach both branches: \(output.prefix(500))")
        for (index, version) in versions.enumerated() {
            for function in ["version_atleast", "version_before"] {
                let expected = HAProxyCondition.evaluate(["\(function)(\(version))"], environment: [:])
                // HAProxy prints each notice it reaches as `parsing [file:line]: 'text'.`
                let said = output.contains("'\(index) \(function) true'")
                XCTAssertTrue(said || output.contains("'\(index) \(function) false'"), "HAProxy took neither branch of \(function)(\(version))")
                XCTAssertEqual(expected, said, "\(function)(\(version))")
            }
        }
    }

    /// Generated conditions joining predicates with `!`, parentheses, `&&` and `||`, each
    /// asked of `haproxy -c`, the way real configurations guard `.alert`s (`.if !defined(X)`).
    func testGeneratedCompoundConditionsAgreeWithHAProxy() throws {
        let haproxy = try RequiredTool.find("haproxy")
        var random = SplitMix64(state: 0xBB67_AE85)
        let atoms = ["1", "0", "defined(PATH)", "defined(DETOUR_NEVER_SET)", "streq(a,a)", "strneq(a,a)", "version_atleast(2.6)", "feature(LUA)"]
        func expression(_ depth: Int) -> String {
            let pick = Int.random(in: 0..<(depth > 2 ? 2 : 5), using: &random)
            let spaces = Bool.random(using: &random) ? " " : ""
            switch pick {
            case 0: return atoms.randomElement(using: &random)!
            case 1: return "!" + spaces + expression(depth + 1)
            case 2: return "(" + spaces + expression(depth + 1) + spaces + ")"
            case 3: return expression(depth + 1) + " && " + expression(depth + 1)
            default: return expression(depth + 1) + " || " + expression(depth + 1)
            }
        }
        let conditions = (0..<150).map { _ in expression(0) }
        let state = try TemporaryFolder()
        defer { state.remove() }
        let config = conditions.enumerated().map { index, condition in
            ".if \(condition)\n.notice \"\(index) true\"\n.else\n.notice \"\(index) false\"\n.endif\n"
        }.joined()
        try state.write(["haproxy.cfg": config])
        let result = try ProcessRunner.run(haproxy, ["-c", "-f", state.path + "/haproxy.cfg"])
        let output = result.stdout + result.stderr
        let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? ""]
        for (index, condition) in conditions.enumerated() {
            let said = output.contains("'\(index) true'")
            XCTAssertTrue(said || output.contains("'\(index) false'"), "HAProxy took neither branch of \(condition): \(output.prefix(300))")
            XCTAssertEqual(HAProxyCondition.evaluate(condition.split(separator: " ").map(String.init), environment: environment), said, condition)
        }
    }
}
