import DetourDiagnostics
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourNginx

final class NginxParserTests: XCTestCase {
    /// The directives of one file (kept alive with the configuration they point into) and
    /// its problems as printed.
    private func parse(_ text: String) -> ([NginxDirective], String) {
        let file = NginxParser.parse(Array(text.utf8), fileID: 0, path: "t.conf")
        let config = NginxConfig(files: [file], entries: file.entries)
        configs.append(config)
        return (config.directives, DiagnosticFormat.text.render(file.diagnostics, toolVersion: "test"))
    }

    private var configs: [NginxConfig] = []

    func testDirectivesBlocksAndLocations() {
        let (tree, problems) = parse("http {\n  server {\n    listen 8080;\n    error_page 502 /errors/502.html;\n  }\n}\n")
        XCTAssertEqual(problems, "")
        let server = tree[0].block?[0]
        XCTAssertEqual(server?.name, "server")
        XCTAssertEqual(server?.block?.map(\.name), ["listen", "error_page"])
        XCTAssertEqual(server?.block?[1].values, ["502", "/errors/502.html"])
        XCTAssertEqual(server?.block?[1].location, SourceLocation(path: "t.conf", line: 4, column: 5))
        XCTAssertEqual(server?.block?[1].arguments[1].location, SourceLocation(path: "t.conf", line: 4, column: 20))
    }

    func testQuotesEscapesAndVariables() {
        let (tree, problems) = parse(#"add_header X "a \"b\" {;}"; set $v '${host}x'; return 200 a\;b; map ${a}z $b {}"#)
        XCTAssertEqual(problems, "")
        XCTAssertEqual(tree[0].values, ["X", "a \"b\" {;}"])
        XCTAssertTrue(tree[0].arguments[1].isQuoted)
        XCTAssertEqual(tree[1].values, ["$v", "${host}x"])
        XCTAssertEqual(tree[2].values, ["200", "a\\;b"])
        XCTAssertEqual(tree[3].values, ["${a}z", "$b"])
        XCTAssertEqual(tree[3].block, [])
    }

    func testClosingBraceInsideAWordIsPartOfIt() {
        let (tree, problems) = parse("add_header X foo};")
        XCTAssertEqual(problems, "")
        XCTAssertEqual(tree[0].values, ["X", "foo}"])
    }

    func testCommentsOnlyStartWords() {
        let (tree, problems) = parse("# top\nadd_header X foo#bar; # trailing\n")
        XCTAssertEqual(problems, "")
        XCTAssertEqual(tree[0].values, ["X", "foo#bar"])
    }

    func testTextRightAfterAClosingQuoteIsAnError() {
        let (_, problems) = parse("add_header X \"a\"b;\nif ($a = \"b\") { }\n")
        XCTAssertEqual(problems, "t.conf:1:17: error: [nginx.syntax] unexpected \"b\" after a quoted string; nginx needs a space here\n1 error, 0 warnings\n")
    }

    func testStrayTokens() {
        XCTAssertTrue(parse("http { ; }").1.hasPrefix("t.conf:1:8: error: [nginx.syntax] unexpected \";\""))
        XCTAssertTrue(parse("http { {} }").1.hasPrefix("t.conf:1:8: error: [nginx.syntax] unexpected \"{\""))
        XCTAssertTrue(parse("http { } }").1.hasPrefix("t.conf:1:10: error: [nginx.syntax] unexpected \"}\""))
        XCTAssertTrue(
            parse("server { listen 80 }").1.hasPrefix(
                "t.conf:1:20: error: [nginx.syntax] unexpected \"}\"\n  t.conf:1:10: note: directive \"listen\" is not terminated by \";\""))
    }

    func testEndOfFileInsideABlockOrDirective() {
        XCTAssertEqual(
            parse("http {\n  server {\n").1,
            "t.conf:3:1: error: [nginx.syntax] unexpected end of file, expecting \"}\"\n  t.conf:2:3: note: block opened here\n1 error, 0 warnings\n")
        XCTAssertTrue(parse("worker_processes 1").1.hasPrefix("t.conf:1:19: error: [nginx.syntax] unexpected end of file, expecting \";\" or \"}\""))
        XCTAssertTrue(parse("add_header X \"never closed;\n").1.hasPrefix("t.conf:2:1: error: [nginx.syntax] unexpected end of file, expecting \";\" or \"}\""))
    }

    func testBlockAndSimpleDirectivesUsedTheWrongWay() {
        XCTAssertTrue(parse("http;").1.hasPrefix("t.conf:1:5: error: [nginx.syntax] directive \"http\" has no opening \"{\""))
        XCTAssertTrue(parse("add_header X a { }").1.hasPrefix("t.conf:1:16: error: [nginx.syntax] directive \"add_header\" is not terminated by \";\""))
        // Located where the directive ends, as nginx does, with its start as a note.
        XCTAssertEqual(
            parse("events {}\nserver\n    listen 80;\n").1,
            """
            t.conf:3:14: error: [nginx.syntax] directive "server" has no opening "{"
              t.conf:2:1: note: directive "server" starts here
            1 error, 0 warnings

            """)
    }

    func testErrorsDoNotStopTheParse() {
        let (tree, problems) = parse("http { ; server { listen 80; } }")
        XCTAssertTrue(problems.hasSuffix("1 error, 0 warnings\n"), problems)
        XCTAssertEqual(tree[0].block?[0].block?[0].values, ["80"])
    }

    func testLuaBlocksAreSkippedWholesale() {
        let text = """
            location / {
                content_by_lua_block {
                    local t = { a = "}" }  -- a brace } in a comment
                    ngx.say([[ } still a string ]], '{')
                    --[==[ long } comment ]==]
                }
                error_page 502 /e.html;
            }
            """
        let (tree, problems) = parse(text)
        XCTAssertEqual(problems, "")
        XCTAssertEqual(tree[0].block?.map(\.name), ["content_by_lua_block", "error_page"])
        XCTAssertEqual(tree[0].block?[0].block, [])
    }

    func testColumnsCountCharactersNotBytes() {
        let (tree, _) = parse("add_header X \"é\"; root /x;")
        XCTAssertEqual(tree[1].location.column, 19)
    }

    func testBinaryAndHostileInputNeverCrash() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0..<400, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = NginxParser.parse(bytes, fileID: 0, path: "bin")
        }
        let deep = String(repeating: "a {", count: 100_000) + String(repeating: "}", count: 100_000)
        let (tree, problems) = parse(deep)
        XCTAssertEqual(
            problems, "t.conf:1:769: error: [nginx.syntax] blocks nest more than 256 levels deep; the deeper ones are not checked\n1 error, 0 warnings\n")
        XCTAssertEqual(tree.count, 1)
        let braces = parse(String(repeating: "{", count: 50_000)).1
        XCTAssertTrue(braces.contains("t.conf:1:1: error: [nginx.syntax] unexpected \"{\""), braces)
        XCTAssertTrue(
            braces.hasSuffix(
                "t.conf:1:101: error: [nginx.syntax] more than 100 syntax errors in this file; the rest are not reported\n101 errors, 0 warnings\n"), braces)
        XCTAssertTrue(parse("content_by_lua_block { [==[ never closed").1.contains("expecting \"}\""))
    }
}
