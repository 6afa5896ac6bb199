import DetourTestSupport
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
        XCTAssertEqual(minify(script), "(function(){\nvar a=\"// kept\",r=/\\/*x/;\na+=1;\n})();\n")
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

    /// Spaces go between tokens that stay apart without them, never inside a string or a
    /// regular expression; newlines stay.
    static let spacedScripts: [(script: String, compact: String)] = [
        ("var x = a - -b, y = a + ++b, z = c-- > 0;", "var x=a- -b,y=a+ ++b,z=c-- >0;"),
        ("return /a b/g.test(s) && \"x  y\" in o;", "return/a b/g.test(s)&&\"x  y\"in o;"),
        ("if (x) /a [/ ]b/.test(s)\nz = (a + b) / 2 / c", "if(x)/a [/ ]b/.test(s)\nz=(a+b)/2/c"),
        ("s = t.split(/[ ,]/) ; q = 'it\\'s / here' // note", "s=t.split(/[ ,]/);q='it\\'s / here'"),
        ("n = 1 .toFixed(2) ; m = x / /y/.source.length", "n=1 .toFixed(2);m=x/ /y/.source.length"),
        ("var r = /x/i in y, t = typeof /z/ ;", "var r=/x/i in y,t=typeof/z/;"),
        ("f(a) /* why */ / g(b); h =  c /* gap */ d", "f(a)/g(b);h=c d"),
        ("x = { a: 1 } \n/re /.exec(s); café = été", "x={a:1}\n/re /.exec(s);café=été"),
    ]

    func testSpacesBetweenTokensGoWhereTheTokensStayApart() {
        for (script, compact) in Self.spacedScripts {
            XCTAssertEqual(minify(script), compact, script)
        }
    }

    /// acorn, a JavaScript parser, reads the same tokens from the shipped search client and
    /// from each script above as from what they become.
    func testMinifiedScriptsKeepEveryToken() throws {
        let node = try RequiredTool.find("node")
        let acorn = "/usr/share/nodejs/acorn"
        guard FileManager.default.fileExists(atPath: acorn) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("node-acorn is not installed (required under CI=true)") }
            throw XCTSkip("node-acorn is not installed")
        }
        let client = try String(contentsOf: Repository.templates.appendingPathComponent("assets/search.js"), encoding: .utf8)
        let pairs = ([client] + Self.spacedScripts.map(\.script)).map { [$0, minify($0)] }
        let result = try ProcessRunner.run(
            node, [Repository.root.appendingPathComponent("scripts/script-tokens.js").path], input: try JSONEncoder().encode(pairs))
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertLessThan(minify(client).utf8.count, client.utf8.count * 2 / 3, "the client loses its comments and spaces")
    }

    func testBytesThatAreNotUTF8AreCopiedWhole() {
        let bytes: [UInt8] = [0x2F, 0x2F, 0x20, 0xFF, 0x0A]
        XCTAssertEqual(ScriptMinifier.minify(bytes), bytes)
    }
}
