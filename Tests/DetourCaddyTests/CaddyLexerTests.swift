import XCTest

@testable import DetourCaddy

/// Caddy's lexical rules, word by word: 2.6's, and the heredocs 2.7 added.
final class CaddyLexerTests: XCTestCase {
    private func words(_ text: String, heredocs: Bool = false) -> [String] {
        CaddyLexer.tokens(Array(text.utf8), file: 0, heredocs: { heredocs }).tokens.map(\.text)
    }

    private func failure(_ text: String) -> CaddyLexer.Failure? {
        CaddyLexer.tokens(Array(text.utf8), file: 0, heredocs: { true }).failure
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
        let tokens = CaddyLexer.tokens(Array("a {\n  respond \"x\ny\" \\\n 200\n}".utf8), file: 0).tokens
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

    func testHeredocsTakeTheClosingMarkersIndentationOffEveryLine() {
        let text = "a {\n\trespond <<HTML\n\t\t<p>{ not a block }</p>\n\n\t\t  indented\n\t\tHTML 503\n}\n"
        let tokens = CaddyLexer.tokens(Array(text.utf8), file: 0, heredocs: { true }).tokens
        XCTAssertEqual(tokens.map(\.text), ["a", "{", "respond", "<p>{ not a block }</p>\n\n  indented", "503", "}"])
        XCTAssertEqual(tokens.map(\.line), [1, 1, 2, 2, 6, 7], "the heredoc is on the line it opens; what follows on the marker's line")
        XCTAssertEqual(tokens[3].quote, UInt8(ascii: "<"))
        XCTAssertTrue(tokens[3].endsBeforeLine(of: tokens[5]))
        XCTAssertFalse(tokens[3].endsBeforeLine(of: tokens[4]), "503 is on the marker's line, so it is the heredoc's argument")
    }

    func testBefore27AHeredocIsWords() {
        XCTAssertEqual(words("respond <<END\nhi\nEND\n"), ["respond", "<<END", "hi", "END"])
        XCTAssertEqual(words("respond \\<<END\n", heredocs: true), ["respond", "<<END"], "an escaped < opens none")
        XCTAssertEqual(words("respond << END\n", heredocs: true), ["respond", "<<", "END"], "a space after << opens none")
    }

    func testBadHeredocsFailInCaddysWords() {
        XCTAssertEqual(
            failure("respond <<\n"),
            .init(
                message: "missing opening heredoc marker on line #1; must contain only alphanumeric characters, dashes and underscores; got empty string",
                line: 1))
        XCTAssertEqual(failure("\nrespond <<<END\n")?.message, "too many '<' for heredoc on line #2; only use two, for example <<END")
        XCTAssertEqual(
            failure("respond <<E.D\n")?.message, "heredoc marker on line #1 must contain only alphanumeric characters, dashes and underscores; got 'E.D'")
        XCTAssertEqual(failure("respond <<END\nnever closed\n"), .init(message: "incomplete heredoc <<END on line #3, expected ending marker END", line: 3))
        XCTAssertEqual(
            failure("respond <<END\n  a\n b\n  END\n"),
            .init(message: "mismatched leading whitespace in heredoc <<END on line #3 [ b], expected whitespace [  ] to match the closing marker", line: 3))
    }
}
