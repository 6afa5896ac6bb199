import DetourContent
import DetourLayout
import XCTest

final class SlugTests: XCTestCase {
    func testSlugsAreLowercaseHyphenated() {
        XCTAssertEqual(Slug.make("PHP-FPM: socket missing!"), "php-fpm-socket-missing")
        XCTAssertEqual(Slug.make("  (2: No such file)  "), "2-no-such-file")
        XCTAssertEqual(Slug.make("Größe prüfen"), "größe-prüfen")
        XCTAssertTrue(Slug.isValid("upstream-timed-out"))
        XCTAssertFalse(Slug.isValid("Upstream Timed Out"))
        XCTAssertFalse(Slug.isValid(""))
    }

    /// Every ASCII character between two letters: kept (lower-cased) where Unicode calls it a
    /// letter or a number, a hyphen otherwise.
    func testEachASCIICharacterIsKeptExactlyWhenItIsALetterOrANumber() {
        for value in UInt8(0)..<128 {
            let scalar = Unicode.Scalar(value)
            let kept = scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            XCTAssertEqual(Slug.make("a\(scalar)b"), kept ? "a\(Character(scalar).lowercased())b" : "a-b", "character \(value)")
        }
    }
}
