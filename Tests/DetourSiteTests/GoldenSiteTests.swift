import DetourDiagnostics
import DetourSite
import DetourTestSupport
import Foundation
import XCTest

/// Builds `Fixtures/<name>` and compares every output file with `Fixtures/<name>/expected`.
/// Run with `RECORD_GOLDEN=1` to re-record after an intended change, then review the diff.
final class GoldenSiteTests: XCTestCase {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    func testSmallSite() throws {
        try assertGolden("small-site")
    }

    private func assertGolden(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let fixture = Self.fixtures.appendingPathComponent(name)
        let output = try TemporaryFolder()
        defer { output.remove() }
        var options = BuildOptions(base: fixture)
        options.output = output.url.appendingPathComponent("public")
        let report = SiteBuilder.build(options)
        XCTAssertEqual(DiagnosticFormat.text.render(report.diagnostics, toolVersion: "test"), "", file: file, line: line)

        let expectedFolder = fixture.appendingPathComponent("expected")
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(at: expectedFolder)
            try FileManager.default.copyItem(at: options.output, to: expectedFolder)
            print("recorded \(expectedFolder.path)")
            return
        }
        let actual = output.snapshot("public")
        let expected = try TemporaryFolder.snapshot(of: expectedFolder)
        XCTAssertEqual(actual.keys.sorted(), expected.keys.sorted(), "files differ", file: file, line: line)
        for (path, data) in actual.sorted(by: { $0.key < $1.key }) where expected[path] != data {
            XCTFail("\(path) differs from the golden copy:\n\(String(decoding: data, as: UTF8.self))", file: file, line: line)
        }
    }
}
