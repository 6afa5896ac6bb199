import DetourDiagnostics
import XCTest

@testable import DetourNginx

final class NginxErrorPageTests: XCTestCase {
    private func pages(_ line: String) -> [(codes: [Int], target: String)] {
        let file = NginxParser.parse(Array(line.utf8), fileID: 0, path: "t.conf")
        let config = NginxConfig(files: [file], entries: file.entries)
        var diagnostics: [Diagnostic] = []
        let read = NginxErrorPage.read(config.directives[0], diagnostics: &diagnostics)
        XCTAssertEqual(diagnostics, [])
        return read.map { ($0.codes, $0.target) }
    }

    func testStatusVariableBecomesOnePagePerFile() {
        let perCode = pages("error_page 500 502 /errors/$status.html;")
        XCTAssertEqual(perCode.map(\.codes), [[500], [502]])
        XCTAssertEqual(perCode.map(\.target), ["/errors/500.html", "/errors/502.html"])
        // nginx sets the overriding status before it builds the target: one file for both.
        let overridden = pages("error_page 500 502 =503 /errors/${status}.html;")
        XCTAssertEqual(overridden.map(\.codes), [[500, 502]])
        XCTAssertEqual(overridden.map(\.target), ["/errors/503.html"])
        XCTAssertEqual(pages("error_page 500 /errors/$lang/$status.html;").map(\.target), ["/errors/$lang/$status.html"], "other variables stay dynamic")
    }
}
