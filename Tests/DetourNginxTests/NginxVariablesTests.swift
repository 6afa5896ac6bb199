import DetourDiagnostics
import XCTest

@testable import DetourNginx

final class NginxVariablesTests: XCTestCase {
    func testCapturesAndNamesAreReplacedOtherVariablesAreUnknown() {
        let captures = ["1": "502", "page": "503"]
        XCTAssertEqual(NginxVariables.expand("/srv/errors/$1.html", captures), "/srv/errors/502.html")
        XCTAssertEqual(NginxVariables.expand("/srv/${page}x.html", captures), "/srv/503x.html")
        XCTAssertEqual(NginxVariables.expand("/srv/plain", [:]), "/srv/plain")
        XCTAssertEqual(NginxVariables.expand("/srv/price$", [:]), "/srv/price$", "a trailing $ names nothing")
        XCTAssertNil(NginxVariables.expand("$document_root/errors", captures))
        XCTAssertNil(NginxVariables.expand("/srv/${page", captures), "an unclosed brace")
    }

    func testRegexLocationsCaptureNumberedAndNamedGroups() {
        let config = NginxParser.parse(Array("location ~ ^/e/(?P<code>[0-9]+)(x)?\\.html$ { }".utf8), fileID: 0, path: "t.conf")
        let tree = NginxConfig(files: [config], entries: config.entries)
        var diagnostics: [Diagnostic] = []
        let location = NginxLocation(directive: tree.directives[0], inherited: NginxScope(), diagnostics: &diagnostics)
        XCTAssertEqual(location.captures(in: "/e/504.html"), ["0": "/e/504.html", "1": "504", "2": "", "code": "504"])
        XCTAssertNil(location.captures(in: "/other"))
    }
}
