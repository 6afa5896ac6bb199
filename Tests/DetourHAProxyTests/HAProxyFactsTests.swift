import DetourSupport
import DetourTestSupport
import Foundation
import XCTest

/// The statuses detour writes `.http` pages for and accepts in `errorfile` lines are the ones
/// the installed HAProxy takes: probed again, they must agree.
final class HAProxyFactsTests: XCTestCase {
    func testTheErrorfileStatusesAreTheInstalledHAProxys() throws {
        let haproxy = try RequiredTool.find("haproxy")
        let bash = try RequiredTool.find("bash")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let result = try ProcessRunner.run(
            bash, [root.appendingPathComponent("scripts/haproxy-errorfile/probe.sh").path], environment: ["HAPROXY": haproxy.path, "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let probed = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        XCTAssertEqual(probed, HAProxyFacts.errorfileStatuses.sorted(), "scripts/haproxy-errorfile/probe.sh disagrees with HAProxyFacts")
        XCTAssertEqual(HAProxyFacts.errorfileStatusesShown, "200, 400, 401, 403, 404, 405, 407, 408, 410, 413, 421, 422, 425, 429, 500–504")
    }
}
