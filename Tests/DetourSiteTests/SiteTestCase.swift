import DetourDiagnostics
import DetourSite
import DetourTestSupport
import Foundation
import XCTest

/// Builds sites in temp folders and reads back what the build reported.
class SiteTestCase: XCTestCase {
    private var folders: [TemporaryFolder] = []

    override func tearDown() {
        folders.forEach { $0.remove() }
        folders = []
        super.tearDown()
    }

    /// The sample site with `overrides` applied (an empty string deletes a file).
    func site(_ overrides: [String: String] = [:]) throws -> TemporaryFolder {
        let folder = try SampleSite.make(overrides)
        folders.append(folder)
        return folder
    }

    func build(_ folder: TemporaryFolder, output: String = "public", templates: String? = nil, strict: Bool = false) -> BuildReport {
        var options = BuildOptions(templates: templates, output: output, base: folder.url)
        options.strict = strict
        return SiteBuilder.build(options)
    }

    /// The text a user would read for this build's findings.
    func diagnostics(_ folder: TemporaryFolder) -> String {
        DiagnosticFormat.text.render(build(folder).diagnostics, toolVersion: "test")
    }

    /// Asserts the build fails, prints `expected` as one of its lines, and wrote nothing.
    func assertFails(_ folder: TemporaryFolder, with expected: String, templates: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        let report = build(folder, templates: templates)
        let text = DiagnosticFormat.text.render(report.diagnostics, toolVersion: "test")
        XCTAssertTrue(text.split(separator: "\n").contains { $0 == expected }, "expected line:\n\(expected)\ngot:\n\(text)", file: file, line: line)
        XCTAssertFalse(report.wroteOutput, "a failing build must not write output", file: file, line: line)
        XCTAssertFalse(folder.exists("public/index.html"), file: file, line: line)
    }
}
