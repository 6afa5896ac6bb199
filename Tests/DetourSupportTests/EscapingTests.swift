import DetourSupport
import Foundation
import XCTest

final class EscapingTests: XCTestCase {
    /// Every character that needs it, in both styles; each result must read back as the text.
    private let awkward = "quote \" backslash \\ tab\t line\n cr\r bell\u{7} <script>&amp; \u{2028}\u{2029} 日本 é"

    func testDocumentStyleKeepsMarkupOutAndReadsBack() throws {
        let quoted = JSONString.quoted(awkward, .document)
        XCTAssertEqual(quoted, #""quote \" backslash \\ tab\t line\n cr\r bell\u0007 \u003cscript\u003e\u0026amp; "# + "\u{2028}\u{2029} 日本 é\"")
        XCTAssertEqual(try decoded(quoted), awkward)
    }

    func testScriptStyleEscapesLineSeparatorsAndReadsBack() throws {
        let quoted = JSONString.quoted(awkward, .script)
        XCTAssertEqual(quoted, #""quote \" backslash \\ tab\u0009 line\u000a cr\u000d bell\u0007 \u003cscript>&amp; \u2028\u2029 日本 é""#)
        XCTAssertEqual(try decoded(quoted), awkward)
        XCTAssertEqual(JSONString.escape("a<b", .script), #"a\u003cb"#)
    }

    /// Generated texts of plain runs and characters to escape, side by side and at either end:
    /// each reads back, and neither style leaves a `<` or a raw control character.
    func testGeneratedTextsReadBackInBothStyles() throws {
        let pieces = ["a", "plain words ", "\"", "\\", "\n", "\u{1}", "<", ">", "&", "\u{2028}", "\u{2029}", "\u{2026}", "日本", "é"]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            for style in [JSONString.Style.document, .script] {
                let quoted = JSONString.quoted(text, style)
                XCTAssertEqual(try decoded(quoted), text, quoted)
                XCTAssertFalse(quoted.contains("<") || quoted.utf8.contains { $0 < 0x20 }, quoted)
            }
        }
    }

    func testHTMLEscapesEveryMarkupCharacter() {
        XCTAssertEqual(HTMLText.escape(#"<a href="x?a=1&b='2'">"#), "&lt;a href=&quot;x?a=1&amp;b=&#39;2&#39;&quot;&gt;")
    }

    private func decoded(_ literal: String) throws -> String {
        try JSONDecoder().decode(String.self, from: Data(literal.utf8))
    }
}
