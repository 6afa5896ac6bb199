import DetourDiagnostics
import XCTest

final class DisplayPathTests: XCTestCase {
    func testFoldsDotsWithoutTheFileSystem() {
        XCTAssertEqual(DisplayPath.normalize("deploy/../public/snippets/nginx.conf"), "public/snippets/nginx.conf")
        XCTAssertEqual(DisplayPath.normalize("./a//b/./c"), "a/b/c")
        XCTAssertEqual(DisplayPath.normalize("/etc/nginx/../nginx/conf.d/x.conf"), "/etc/nginx/conf.d/x.conf")
        XCTAssertEqual(DisplayPath.normalize("/../etc"), "/etc")
    }

    func testClimbingAboveARelativeStartIsRefused() {
        XCTAssertNil(DisplayPath.normalize("../outside"))
        XCTAssertNil(DisplayPath.normalize("a/../../b"))
    }
}
