import XCTest

@testable import DetourLogs

/// HAProxy's common log format (`option httplog clf`) read as its `option httplog` fields.
final class HAProxyCLFLineTests: XCTestCase {
    private func line(_ text: String) -> HAProxyCLFLine? {
        Array(text.utf8).withUnsafeBufferPointer { HAProxyCLFLine.of($0) }
    }

    private func view(_ text: String) -> String? {
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            HAProxyCLFLine.of(bytes).map { String(decoding: $0.httplogView(of: bytes), as: UTF8.self) }
        }
    }

    func testHAProxysOwnFormatIsReadAsItsHTTPLogFields() {
        // As HAProxy 2.6 wrote it for a visitor who left while the connection was made.
        let written =
            #"127.0.0.1 - - [30/Nov/2026:18:37:00 +0000] "GET / HTTP/1.1" -1 0 "" "" 49436 308 "webclf" "app" "app1" 0 0 -1 -1 1001 CC-- 1 1 0 0 0 0 0 "" "" "#
        XCTAssertEqual(view(written), "app/app1 0/0/-1/-1/1001 -1 0 - - CC-- 1/1/0/0/0 0/0")
        XCTAssertEqual(line(written)?.status, -1)
    }

    func testASyslogPrefixAndCapturedHeadersAfterTheCountersAreReadPast() {
        let quoted =
            #"Mar 10 14:00:56 localhost haproxy[30170]: 10.0.0.7 - - [10/Mar/2022:14:00:56 +0000] "GET /5.js HTTP/1.1" 503 217 "" "" 59794 528 "web~" "mail-servers" "mail_052" 0 0 -1 -1 3 CC-- 4 1 0 0 0 0 0 "Session-Id=x" "" "example.com""#
        XCTAssertEqual(view(quoted), "mail-servers/mail_052 0/0/-1/-1/3 503 217 - - CC-- 4/1/0/0/0 0/0")
    }

    /// Near misses: an nginx or Apache access line in the same format has no empty cookies and
    /// timers after its bytes; HAProxy's own `option httplog` line is not this format.
    func testOtherCommonLogLinesAreNotHAProxys() {
        XCTAssertNil(line(#"10.0.0.7 - - [10/Mar/2022:14:00:56 +0000] "GET / HTTP/1.1" 502 157 "-" "curl/7.88.1""#))
        XCTAssertNil(
            line(#"127.0.0.1:35494 [30/Nov/2026:18:36:28.779] web app/app1 0/0/0/-1/10006 504 198 - - sH-- 3/2/2/2/0 0/0 "GET / HTTP/1.1""#))
    }
}
