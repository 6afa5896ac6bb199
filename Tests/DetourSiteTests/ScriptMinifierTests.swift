import Foundation
import XCTest

@testable import DetourSite

final class ScriptMinifierTests: XCTestCase {
    private func minify(_ script: String) -> String {
        String(decoding: ScriptMinifier.minify(Array(script.utf8)), as: UTF8.self)
    }

    func testCommentLinesIndentationAndBlankLinesGo() {
        let script = """
            /* a header
               over two lines */
            (function () {
              // why, not what

              var a = "// kept", r = /\\/*x/; /* trailing */
              /* before */ a += 1;
            })();

            """
        XCTAssertEqual(minify(script), "(function () {\nvar a = \"// kept\", r = /\\/*x/; /* trailing */\na += 1;\n})();\n")
    }

    /// The `*` of `/*` does not close it: `/*/` opens a comment that runs on.
    func testACommentOpenedWithASlashAfterTheStarRunsOn() {
        XCTAssertEqual(minify("/*/ still a comment\n*/ x();\n/**/ y();"), "x();\ny();")
    }

    /// Text, or a comment opened after code, that spans lines may hold what looks like a
    /// comment line.
    func testScriptsWithTextAcrossLinesAreCopiedWhole() {
        for script in ["var t = `a\n  // b`;\n", "var s = \"a\\\n  // b\";\n", "x(); /* opens\n/* inside\n*/ y();\n"] {
            XCTAssertEqual(minify(script), script)
        }
    }

    func testBytesThatAreNotUTF8AreCopiedWhole() {
        let bytes: [UInt8] = [0x2F, 0x2F, 0x20, 0xFF, 0x0A]
        XCTAssertEqual(ScriptMinifier.minify(bytes), bytes)
    }
}
