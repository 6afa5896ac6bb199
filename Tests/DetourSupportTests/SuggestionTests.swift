import DetourSupport
import XCTest

final class SuggestionTests: XCTestCase {
    func testSuggestionFindsCloseNamesOnly() {
        XCTAssertEqual(Suggestion.closest(to: "titel", among: ["title", "summary"]), "title")
        XCTAssertEqual(Suggestion.closest(to: "langauge", among: ["language", "logo"]), "language")
        XCTAssertNil(Suggestion.closest(to: "colour_scheme", among: ["title", "summary"]))
    }
}
