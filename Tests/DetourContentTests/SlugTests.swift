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
}
