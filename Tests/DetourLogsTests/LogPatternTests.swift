import XCTest

@testable import DetourLogs

final class LogPatternTests: XCTestCase {
    private func matches(_ pattern: String, _ line: String) -> Bool {
        LogMatcher([LogCause(slug: "s", title: "t", url: "u", statuses: [], patterns: [pattern])]).explanation(of: line) != nil
    }

    func testNumbersAddressesAndPathsStandForAnyOfTheirKind() {
        let refused = "connect() failed (111: Connection refused) while connecting to upstream"
        XCTAssertTrue(
            matches(refused, "2026/11/22 23:07:10 [error] 7#7: *1 connect() failed (111: Connection refused) while connecting to upstream, client: 10.0.0.1"))
        XCTAssertFalse(matches(refused, "connect() failed (113: No route to host) while connecting to upstream"))
        // The address swallows no more than the `:` after it leaves.
        XCTAssertTrue(matches("dial tcp 127.0.0.1:8080: connect: connection refused", #"{"msg":"dial tcp 10.1.2.3:9000: connect: connection refused"}"#))
        XCTAssertTrue(matches("attempt to connect to 127.0.0.1:8080 (127.0.0.1) failed", "AH00957: http: attempt to connect to [::1]:3000 ([::1]:3000) failed"))
        XCTAssertTrue(
            matches(
                "connect() to unix:/run/php/php8.2-fpm.sock failed (2: No such file or directory)",
                "connect() to unix:/var/run/php/php8.3-fpm.sock failed (2: No such file or directory) while connecting"))
    }

    func testAnEllipsisStandsForAnyText() {
        let handshake = "SSL_do_handshake() failed (…) while SSL handshaking to upstream"
        XCTAssertTrue(
            matches(
                handshake,
                "2026/11/22 23:07:10 [error] 7#7: *1 SSL_do_handshake() failed (SSL: error:0A00010B:SSL routines::wrong version number) while SSL handshaking to upstream, client: 10.0.0.1"
            ))
        XCTAssertTrue(
            matches(handshake, "SSL_do_handshake() failed (SSL: error:0A000126:SSL routines::unexpected eof while reading) while SSL handshaking to upstream"))
        // The words on either side still count: a visitor's handshake is not the upstream's.
        XCTAssertFalse(
            matches(handshake, "SSL_do_handshake() failed (SSL: error:0A00006C:SSL routines::bad key share) while SSL handshaking, client: 10.0.0.1"))
        XCTAssertTrue(LogPattern("…").isEmpty)
        XCTAssertEqual(LogPattern(handshake).specificity, LogPattern("SSL_do_handshake() failed () while SSL handshaking to upstream").specificity)
    }

    func testHAProxysTerminationStateMatchesWhateverCookieFlagsFollow() {
        let line = #"10.0.0.1:51234 [02/Dec/2026:12:00:00.000] web app/app1 0/0/0/-1/3001 504 198 - - sHVN 2/2/1/0/0 0/0 "GET / HTTP/1.1""#
        XCTAssertTrue(matches("504 198 - - sH--", line))
        XCTAssertTrue(matches("504 198 - - sH--", line.replacingOccurrences(of: "sHVN", with: "sH--")))
        // Who ended the session and where stay as written.
        XCTAssertFalse(matches("504 198 - - sC--", line))
        XCTAssertFalse(matches("504 198 - - SH--", line))
        XCTAssertTrue(matches(#"400 0 - - PR-- 1/1/0/0/0 0/0 "<BADREQ>""#, #"web web/<NOSRV> -1/-1/-1/-1/0 400 0 - - PRNN 1/1/0/0/0 0/0 "<BADREQ>""#))
        // Between backticks, as written.
        XCTAssertFalse(matches("504 198 - - `sH--`", line))
    }

    func testDigitsInsideAWordStayLiteral() {
        XCTAssertTrue(matches("AH00957: http: attempt", "[proxy:error] AH00957: http: attempt"))
        XCTAssertFalse(matches("AH00957: http: attempt", "[proxy:error] AH00958: http: attempt"))
        XCTAssertFalse(matches("Layer7 wrong status", "Layer4 wrong status"))
    }

    func testAPatternOfOnlyChangingPartsMatchesNothing() {
        let pattern = LogPattern("127.0.0.1:8080 1234")
        XCTAssertTrue(pattern.isEmpty)
        XCTAssertFalse(matches("127.0.0.1:8080 1234", "127.0.0.1:8080 1234"))
    }

    func testTheLongerLiteralIsTheMoreSpecific() {
        XCTAssertGreaterThan(
            LogPattern("upstream timed out (110: Connection timed out) while reading response header from upstream").specificity,
            LogPattern("while reading response header from upstream").specificity)
    }

    func testShapesReplaceWhatChangesAndDropTheTime() {
        var shape: [UInt8] = []
        Array(
            #"2026/11/22 23:08:00 [error] 12#12: *5 open() "/usr/share/nginx/html/favicon.ico" failed (2: No such file or directory), client: 127.0.0.1"#.utf8
        ).withUnsafeBufferPointer { LogShape.write($0, time: LogTime.of($0), into: &shape) }
        XCTAssertEqual(String(decoding: shape, as: UTF8.self), #"[error] N#N: *N open() "PATH" failed (N: No such file or directory), client: ADDRESS"#)
    }

    func testTimesAsEachServerWritesThem() {
        func time(_ line: String) -> String? {
            Array(line.utf8).withUnsafeBufferPointer { buffer in LogTime.of(buffer).map { LogTime.text(buffer[$0.range], isEpoch: $0.isEpoch) } }
        }
        XCTAssertEqual(time("2026/11/22 23:07:10 [error] 7#7: x"), "2026/11/22 23:07:10")
        XCTAssertEqual(time("[Sun Nov 22 23:09:10.123456 2026] [proxy:error] x"), "Sun Nov 22 23:09:10.123456 2026")
        XCTAssertEqual(time("[22-Nov-2026 23:07:10] WARNING: [pool www] x"), "22-Nov-2026 23:07:10")
        XCTAssertEqual(time("Nov 22 23:07:10 lb haproxy[99]: Server app/web1 is DOWN"), "Nov 22 23:07:10")
        XCTAssertEqual(time(#"{"level":"error","ts":0,"msg":"x"}"#), "1970-01-01T00:00:00Z")
        XCTAssertNil(time("[WARNING]  (1) : Server app/web1 is DOWN"))
    }

    func testANumberBetweenBackticksIsWrittenAsIs() {
        let pattern = LogPattern("[WARNING] Worker with pid 1234 was terminated due to signal `9`")
        let matches = { (line: String) in
            Array(line.utf8).withUnsafeBufferPointer { line in
                let anchor = pattern.anchor
                guard let start = (0...(line.count - anchor.count)).first(where: { Array(line[$0..<($0 + anchor.count)]) == anchor }) else { return false }
                return pattern.matches(line, anchorAt: start)
            }
        }
        XCTAssertTrue(matches("[2026-11-25 06:58:45 +0000] [50] [WARNING] Worker with pid 6345 was terminated due to signal 9"), "any pid")
        XCTAssertFalse(matches("[2026-11-25 06:58:45 +0000] [50] [WARNING] Worker with pid 6345 was terminated due to signal 15"), "a graceful stop")
        XCTAssertEqual(pattern.example, "[WARNING] Worker with pid 1234 was terminated due to signal 9")
    }
}
