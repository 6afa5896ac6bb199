@testable import DetourCaddy
import XCTest

/// Caddy 2.6's lexical rules, word by word.
final class CaddyLexerTests: XCTestCase {
    private func words(_ text: String) -> [String] {
        CaddyLexer.tokens(Array(text.utf8), file: 0).map(\.text)
    }

    func testWordsSplitOnWhiteSpaceAndCommentsStartAWord() {
        XCTAssertEqual(words("example.com {\n\trespond hi # not this\n}\n"), ["example.com", "{", "respond", "hi", "}"])
        XCTAssertEqual(words("path /a#b\n"), ["path", "/a#b"], "# inside a word is no comment")
        XCTAssertEqual(words("\u{FEFF}a b"), ["a", "b"], "the byte order mark is dropped")
    }

    func testQuotesKeepSpacesAndOnlyEscapeTheQuote() {
        XCTAssertEqual(words(#"respond "a \"b\" \n c" 200"#), ["respond", #"a "b" \n c"#, "200"])
        XCTAssertEqual(words("respond `raw \"quotes\" \\n`"), ["respond", #"raw "quotes" \n"#])
        XCTAssertEqual(words(#"header "" x"#), ["header", "", "x"], "an empty quoted word is a word")
    }

    func testLinesAndColumnsAreWhereWordsStart() {
        let tokens = CaddyLexer.tokens(Array("a {\n  respond \"x\ny\" \\\n 200\n}".utf8), file: 0)
        // As Caddy counts: a word after `\` and a line break is on the line it continues.
        XCTAssertEqual(tokens.map(\.line), [1, 1, 2, 2, 3, 5])
        XCTAssertEqual(tokens.map(\.column), [1, 3, 3, 11, 2, 1])
        XCTAssertEqual(tokens[3].quote, UInt8(ascii: "\""))
    }

    func testAnUnterminatedQuoteRunsToTheEnd() {
        XCTAssertEqual(words("respond \"hi\n}\n"), ["respond", "hi\n}\n"])
    }

    func testEnvironmentVariablesArePutInFirst() {
        let expanded = CaddyEnvironment.expand(Array("{$SITE:example.com} {\n\trespond {$BODY} {$}\n}".utf8), environment: ["BODY": "hello"])
        XCTAssertEqual(String(decoding: expanded, as: UTF8.self), "example.com {\n\trespond hello {$}\n}")
    }
}
