import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourHAProxy

/// Two servers of one proxy with one name, in a proxy of two and in one of twenty (looked up
/// by name past sixteen): named where `haproxy -c` names them, in its words.
final class HAProxyServerNameTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder.remove()
    }

    func testARepeatedServerNameIsRefusedWhereHAProxyRefusesIt() throws {
        var lines = ["defaults", "    mode http", "    timeout connect 5s", "    timeout client 5s", "    timeout server 5s", "backend many"]
        lines += (0..<20).map { "    server app\($0) 127.0.0.1:\(9000 + $0)" }
        lines += ["    server app3 127.0.0.1:9100", "    server app19b 127.0.0.1:9101 id 40", "backend few", "    server a 127.0.0.1:9001"]
        lines += ["    server a 127.0.0.1:9002", "backend distinct", "    server a 127.0.0.1:9001", "    server b 127.0.0.1:9002", ""]
        try folder.write(["haproxy.cfg": lines.joined(separator: "\n")])
        let verdict = try ProcessRunner.run(try RequiredTool.find("haproxy"), ["-c", "-f", folder.path + "/haproxy.cfg"])
        let said = (verdict.stdout + verdict.stderr).split(separator: "\n").filter { $0.contains("another server named") }
        let check = HAProxyChecker.check(
            .init(main: folder.url.appendingPathComponent("haproxy.cfg"), mainDisplay: "haproxy.cfg", pages: nil, maps: [], serverVersion: "2.6"),
            environment: [:]
        ).diagnostics.filter { $0.message.contains("another server named") }
        XCTAssertEqual(check.map(\.location.line), [27, 31], "\(check)")
        XCTAssertEqual(said.count, check.count, said.joined(separator: "\n"))
        for (line, finding) in zip(said, check) {
            XCTAssertTrue(line.contains("haproxy.cfg:\(finding.location.line)]"), "\(line) \(finding)")
            let words = finding.message.replacingOccurrences(of: ": HAProxy refuses the file", with: "")
            XCTAssertTrue(line.hasSuffix(words + "."), "\(line) \(words)")
        }
    }
}
