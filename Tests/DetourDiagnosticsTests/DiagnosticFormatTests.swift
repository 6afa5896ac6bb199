import Foundation
import XCTest

@testable import DetourDiagnostics

final class DiagnosticFormatTests: XCTestCase {
    private let findings: [Diagnostic] = [
        .warning(
            "nginx.inherited-error-page-dropped", "this error_page drops the server-level pages for 502, 503, 504",
            at: SourceLocation(path: "deploy/nginx.conf", line: 14, column: 5),
            notes: [.init("inherited from here", at: SourceLocation(path: "deploy/nginx.conf", line: 6, column: 5)), .init("fix: repeat them here")]),
        .error("content.type-mismatch", "'retry_after' must be a whole number", at: SourceLocation(path: "content/codes/502.yml", line: 4, column: 14)),
    ]

    func testTextIsOneLinePerFindingSortedByFileWithNotesAndCount() {
        let text = DiagnosticFormat.text.render(findings, toolVersion: "1")
        XCTAssertEqual(
            text,
            """
            content/codes/502.yml:4:14: error: [content.type-mismatch] 'retry_after' must be a whole number
            deploy/nginx.conf:14:5: warning: [nginx.inherited-error-page-dropped] this error_page drops the server-level pages for 502, 503, 504
              deploy/nginx.conf:6:5: note: inherited from here
              note: fix: repeat them here
            1 error, 1 warning

            """)
    }

    /// Grouped, the findings of one rule and one cause (one place, or one place their notes name
    /// as the cause) are their first, with a note naming up to three others; another rule, or
    /// another severity, at the same place stays apart. The count says how many instances.
    func testGroupedTextShowsOneFindingPerCause() {
        let folder = SourceLocation(path: "deploy/nginx.conf", line: 18, column: 13)
        let missing = (6...10).map { line in
            Diagnostic.error(
                "nginx.error-page-missing-file", "page for \(line) missing", at: SourceLocation(path: "deploy/nginx.conf", line: line, column: 24),
                notes: [.init("the folder comes from here", at: folder)])
        }
        let line6 = SourceLocation(path: "deploy/nginx.conf", line: 6, column: 24)
        let others: [Diagnostic] = [
            .warning("nginx.add-header-without-always", "one", at: line6), .warning("nginx.add-header-without-always", "two", at: line6),
            .error("nginx.error-page-soft-status", "soft", at: line6),
        ]
        let text = DiagnosticFormat.text.render(missing + others, toolVersion: "1", grouped: true)
        XCTAssertEqual(
            text,
            """
            deploy/nginx.conf:6:24: warning: [nginx.add-header-without-always] one
              note: 1 more like it: deploy/nginx.conf:6:24
            deploy/nginx.conf:6:24: error: [nginx.error-page-missing-file] page for 6 missing
              deploy/nginx.conf:18:13: note: the folder comes from here
              note: 4 more like it: deploy/nginx.conf:7:24, deploy/nginx.conf:8:24, deploy/nginx.conf:9:24 and 1 more
            deploy/nginx.conf:6:24: error: [nginx.error-page-soft-status] soft
            2 errors, 1 warning (8 instances; --verbose lists each)

            """)
        let ungrouped = DiagnosticFormat.text.render(missing + others, toolVersion: "1")
        XCTAssertTrue(ungrouped.hasSuffix("6 errors, 2 warnings\n") && !ungrouped.contains("more like it"), ungrouped)
        XCTAssertEqual(DiagnosticFormat.text.render(findings, toolVersion: "1", grouped: true), DiagnosticFormat.text.render(findings, toolVersion: "1"))
    }

    func testTextIsEmptyWhenClean() {
        XCTAssertEqual(DiagnosticFormat.text.render([], toolVersion: "1"), "")
    }

    func testJSONCarriesEveryFieldAndCounts() throws {
        let json = DiagnosticFormat.json.render(findings, toolVersion: "1")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(object["errors"] as? Int, 1)
        XCTAssertEqual(object["warnings"] as? Int, 1)
        let first = try XCTUnwrap((object["diagnostics"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["rule"] as? String, "content.type-mismatch")
        XCTAssertEqual(first["severity"] as? String, "error")
        let location = try XCTUnwrap(first["location"] as? [String: Any])
        XCTAssertEqual(location["path"] as? String, "content/codes/502.yml")
        XCTAssertEqual(location["line"] as? Int, 4)
        XCTAssertEqual(location["column"] as? Int, 14)
    }

    func testSARIFNamesRulesLevelsAndRegions() throws {
        let sarif = DiagnosticFormat.sarif.render(findings, toolVersion: "9.9")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        XCTAssertEqual(object["version"] as? String, "2.1.0")
        let run = try XCTUnwrap((object["runs"] as? [[String: Any]])?.first)
        let driver = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        XCTAssertEqual(driver["name"] as? String, "detour")
        XCTAssertEqual(driver["version"] as? String, "9.9")
        XCTAssertEqual(
            (driver["rules"] as? [[String: Any]])?.compactMap { $0["id"] as? String }, ["content.type-mismatch", "nginx.inherited-error-page-dropped"])
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        XCTAssertEqual(results.map { $0["level"] as? String }, ["error", "warning"])
        let region = try XCTUnwrap(((results[1]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])
        XCTAssertEqual(region["startLine"] as? Int, 14)
        XCTAssertEqual(region["startColumn"] as? Int, 5)
        XCTAssertEqual((results[1]["relatedLocations"] as? [Any])?.count, 1)
        XCTAssertEqual(
            (results[1]["message"] as? [String: Any])?["text"] as? String,
            "this error_page drops the server-level pages for 502, 503, 504\nfix: repeat them here", "the fix is kept")
    }

    func testSARIFLocationsAreURIReferences() {
        XCTAssertEqual(SARIFDiagnosticRenderer.uri("deploy/my sites/a.conf"), "deploy/my%20sites/a.conf")
        XCTAssertEqual(SARIFDiagnosticRenderer.uri("/etc/nginx/nginx.conf"), "file:///etc/nginx/nginx.conf")
    }

    func testLocationsClampToTheFirstLineAndColumn() {
        XCTAssertEqual(SourceLocation(path: "a", line: 0, column: -3).description, "a:1:1")
    }
}
