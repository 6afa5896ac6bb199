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

    func testHTMLEscapesEveryMarkupCharacter() {
        XCTAssertEqual(HTMLText.escape(#"<a href="x?a=1&b='2'">"#), "&lt;a href=&quot;x?a=1&amp;b=&#39;2&#39;&quot;&gt;")
    }

    private func decoded(_ literal: String) throws -> String {
        try JSONDecoder().decode(String.self, from: Data(literal.utf8))
    }
}
