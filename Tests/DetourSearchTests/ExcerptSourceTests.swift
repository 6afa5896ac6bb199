import XCTest

@testable import DetourSearch

/// A record's excerpt source is its first 400 characters cut at the last space, whether the
/// text's bytes tell the characters (ASCII) or not: generated texts of every length around
/// the limit, plain, with "\r\n" (one character of two bytes) and with accents and ideographs.
final class ExcerptSourceTests: XCTestCase {
    func testTheExcerptIsTheFirstCharactersCutAtASpace() {
        var random = SystemRandomNumberGenerator()
        let alphabets = [["a", "b", " "], ["a", " ", "\r\n"], ["a", " ", "é", "日"], ["e\u{301}", " ", "x"]]
        for alphabet in alphabets {
            for _ in 0..<300 {
                let text = (0..<Int.random(in: 350...450, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
                XCTAssertEqual(SearchIndexBuilder.excerptSource(text), Self.expected(text), "\(alphabet)")
            }
        }
    }

    /// The definition, by characters.
    private static func expected(_ text: String) -> String {
        let cut = text.prefix(SearchIndexBuilder.excerptSourceLength)
        guard cut.endIndex < text.endIndex else { return text }
        return String(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)])
    }
}
