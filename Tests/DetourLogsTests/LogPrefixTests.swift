import XCTest

@testable import DetourLogs

/// Where a program's own text starts behind syslog's and journald's prefix.
final class LogPrefixTests: XCTestCase {
    private func own(_ line: String) -> String {
        Array(line.utf8).withUnsafeBufferPointer { String(decoding: $0[LogPrefix.end(of: $0)...], as: UTF8.self) }
    }

    func testSyslogAndJournaldPrefixesAreSkipped() {
        XCTAssertEqual(own("Nov 25 06:00:00 web1 gunicorn[812]:   File \"/srv/app.py\", line 2"), "  File \"/srv/app.py\", line 2")
        XCTAssertEqual(own("Nov  5 06:00:00 web1 caddy[640]: {\"level\":\"error\"}"), "{\"level\":\"error\"}")
        XCTAssertEqual(own("2026-11-25T06:00:00+0000 web1 caddy[640]: {\"level\":\"error\"}"), "{\"level\":\"error\"}")
        XCTAssertEqual(own("Nov 25 06:00:00 lb1 haproxy[999]: Server app/app1 is DOWN"), "Server app/app1 is DOWN")
        XCTAssertEqual(own("Nov 25 06:00:00 web1 kernel: Out of memory: Killed process 812 (gunicorn)"), "Out of memory: Killed process 812 (gunicorn)")
    }

    func testUWSGIsDateIsAPrefix() {
        XCTAssertEqual(own("Wed Nov 25 08:47:12 2026 - *** HARAKIRI ON WORKER 1 (pid: 3546, try: 1) ***"), "*** HARAKIRI ON WORKER 1 (pid: 3546, try: 1) ***")
        XCTAssertEqual(own("Wed Nov  5 08:47:12 2026 - HARAKIRI !!! worker 1 status !!!"), "HARAKIRI !!! worker 1 status !!!")
        // uWSGI's request log names the process in brackets: no time, no prefix.
        let request = "[pid: 3312|app: -1|req: -1/1] 127.0.0.1 () {10 vars in 102 bytes} [Wed Nov 25 08:46:30 2026] GET / => generated 21 bytes"
        XCTAssertEqual(own(request), request)
    }

    func testServersOwnTimesAreNoPrefix() {
        for line in [
            "2026/11/25 06:00:00 [error] 12#12: *5 connect() failed (111: Connection refused) while connecting to upstream",
            "[Wed Nov 25 06:00:00.123456 2026] [proxy:error] [pid 1:tid 2] AH01114: HTTP: failed to make connection to backend",
            "[25-Nov-2026 06:00:00] WARNING: [pool www] child 12 exited on signal 9 (SIGKILL)",
            "{\"level\":\"error\",\"ts\":1795588184.4,\"msg\":\"EOF\"}", "Traceback (most recent call last):",
        ] {
            XCTAssertEqual(own(line), line)
        }
    }
}
