import XCTest

@testable import DetourVerify

/// How the fake upstream reads a request in each gateway protocol, as nginx and PHP-FPM's
/// peers write them, and knows when it is whole.
final class FakeGatewayTests: XCTestCase {
    private func fastCGIRecord(_ type: UInt8, _ content: [UInt8]) -> [UInt8] {
        [1, type, 0, 1, UInt8(content.count >> 8), UInt8(content.count & 0xFF), 0, 0] + content
    }

    func testAFastCGIRequestIsWholeOnceItsParamsAndInputHaveEnded() {
        let name = Array("REQUEST_URI".utf8)
        let value = Array("/index.php?detour-probe=m1".utf8)
        let long = Array(repeating: UInt8(ascii: "x"), count: 200)
        // One pair with a long (4-byte) value length, then the URI's.
        let params = [5, 0x80, 0, 0, 200] + Array("OTHER".utf8) + long + [UInt8(name.count), UInt8(value.count)] + name + value
        let begin = fastCGIRecord(1, [0, 1, 0, 0, 0, 0, 0, 0])
        let head = begin + fastCGIRecord(4, params) + fastCGIRecord(4, [])
        XCTAssertEqual(FakeGateway.fastcgi.read(head), .incomplete, "the standard input has not ended")
        XCTAssertEqual(
            FakeGateway.fastcgi.read(head + fastCGIRecord(5, Array("a=b".utf8)) + fastCGIRecord(5, [])), .complete(uri: "/index.php?detour-probe=m1"))
        let answer = FakeGateway.fastcgi.answer(status: 503, body: "down\n")
        XCTAssertEqual(Array(answer.prefix(2)), [1, 6], "a standard output record first")
        XCTAssertTrue(String(decoding: answer, as: UTF8.self).contains("Status: 503\r\n"))
        XCTAssertEqual(Array(answer.suffix(16).prefix(2)), [1, 3], "ended by FCGI_END_REQUEST")
    }

    func testUWSGIAndSCGIRequestsAreWholeWithTheirBodies() {
        func uwsgiText(_ text: String) -> [UInt8] { [UInt8(text.utf8.count & 0xFF), UInt8(text.utf8.count >> 8)] + Array(text.utf8) }
        let vars = uwsgiText("REQUEST_URI") + uwsgiText("/app?detour-probe=m2") + uwsgiText("CONTENT_LENGTH") + uwsgiText("3")
        let request = [0, UInt8(vars.count & 0xFF), UInt8(vars.count >> 8), 0] + vars
        XCTAssertEqual(FakeGateway.uwsgi.read(request), .incomplete, "its 3-byte body is still to come")
        XCTAssertEqual(FakeGateway.uwsgi.read(request + Array("a=b".utf8)), .complete(uri: "/app?detour-probe=m2"))
        let headers = "CONTENT_LENGTH\u{0}2\u{0}SCGI\u{0}1\u{0}REQUEST_URI\u{0}/s\u{0}"
        let scgi = Array("\(headers.utf8.count):\(headers),".utf8)
        XCTAssertEqual(FakeGateway.scgi.read(scgi + Array("x".utf8)), .incomplete)
        XCTAssertEqual(FakeGateway.scgi.read(scgi + Array("xy".utf8)), .complete(uri: "/s"))
        XCTAssertTrue(String(decoding: FakeGateway.uwsgi.answer(status: 500, body: "b"), as: UTF8.self).hasPrefix("HTTP/1.1 500 "))
    }
}
