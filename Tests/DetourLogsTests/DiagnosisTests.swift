import Foundation
import XCTest

@testable import DetourLogs

final class DiagnosisTests: XCTestCase {
    private let causes = [
        LogCause(
            slug: "timed-out", title: "Timed out", url: "https://h/articles/timed-out/", statuses: [504],
            patterns: ["while reading response header from upstream"]),
        LogCause(
            slug: "header-too-big", title: "Too big", url: "https://h/articles/header-too-big/", statuses: [502],
            patterns: ["upstream sent too big header while reading response header from upstream"]),
    ]

    /// Feeds `bytes` through the reader as a pipe would.
    private func diagnose(_ bytes: [UInt8]) -> Diagnosis {
        var pipe: [Int32] = [0, 0]
        XCTAssertEqual(Glibc.pipe(&pipe), 0)
        let writeEnd = pipe[1]
        let writer = Thread {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count { offset += max(0, write(writeEnd, raw.baseAddress! + offset, raw.count - offset)) }
            }
            close(writeEnd)
        }
        writer.start()
        var diagnosis = Diagnosis(causes: causes)
        var reader = LogLineReader(descriptor: pipe[0])
        XCTAssertTrue(
            reader.read { event in
                switch event {
                case .line(let line): diagnosis.read(line)
                case .overlong: diagnosis.readOverlong()
                }
            })
        close(pipe[0])
        return diagnosis
    }

    func testTheArticleWhosePatternSaysMostExplainsALine() {
        let diagnosis = diagnose(
            Array(
                "x upstream sent too big header while reading response header from upstream\ny upstream timed out (110: Connection timed out) while reading response header from upstream\n"
                    .utf8))
        XCTAssertEqual(diagnosis.results.map(\.cause.slug).sorted(), ["header-too-big", "timed-out"])
        XCTAssertEqual(diagnosis.results.map(\.count), [1, 1])
    }

    func testCRLFNoFinalNewlineGarbageAndAHugeLineAreCountedNotFatal() {
        var bytes = Array("a while reading response header from upstream\r\n".utf8)
        bytes += (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }.filter { $0 != 10 } + [10]
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20) + [10]
        bytes += Array("b while reading response header from upstream".utf8)
        let diagnosis = diagnose(bytes)
        XCTAssertEqual(diagnosis.lines, 4)
        XCTAssertEqual(diagnosis.overlong, 1)
        XCTAssertEqual(diagnosis.unexplained, 1)
        XCTAssertEqual(diagnosis.results.first?.count, 2)
        XCTAssertEqual(diagnosis.results.first?.lines, ["a while reading response header from upstream", "b while reading response header from upstream"])
    }

    func testUnexplainedLinesAreCountedByShape() {
        let lines = (0..<30).map {
            "2026/11/22 23:08:\(String(format: "%02d", $0)) [error] 9#9: *\($0) open() \"/srv/\($0).ico\" failed (2: No such file or directory)\n"
        }.joined()
        let diagnosis = diagnose(Array((lines + "something else\n").utf8))
        XCTAssertEqual(diagnosis.unexplained, 31)
        XCTAssertEqual(diagnosis.topShapes(1).first?.count, 30)
        XCTAssertEqual(diagnosis.topShapes(1).first?.shape, #"[error] N#N: *N open() "PATH" failed (N: No such file or directory)"#)
    }

    func testAPatternIsFoundByItsLongestLiteralWithChangingPartsOnBothSides() {
        var diagnosis = Diagnosis(causes: [
            LogCause(
                slug: "refused", title: "Refused", url: "https://h/articles/refused/", statuses: [502],
                patterns: ["dial tcp 127.0.0.1:8080: connect: connection refused"])
        ])
        for line in [
            #"{"ts":1,"msg":"dial tcp 10.9.8.7:3000: connect: connection refused"}"#, #"{"ts":2,"msg":"dial tcp: connect: connection refused"}"#,
            "connect: connection refused",
        ] {
            Array(line.utf8).withUnsafeBufferPointer { diagnosis.read($0) }
        }
        XCTAssertEqual(diagnosis.results.first?.count, 1, "only the line with an address between the two literals")
        XCTAssertEqual(diagnosis.results.first?.first, "1970-01-01T00:00:01Z")
        XCTAssertEqual(diagnosis.unexplained, 2)
    }

    private func read(_ lines: [String], into diagnosis: inout Diagnosis) {
        for line in lines { Array(line.utf8).withUnsafeBufferPointer { diagnosis.read($0) } }
    }

    func testLinesOfOneRequestAreOneIncidentUnderItsFirstLinesArticle() {
        var diagnosis = Diagnosis(causes: [
            LogCause(
                slug: "connect-timeout", title: "Connect timeout", url: "https://h/a/", statuses: [503],
                patterns: ["(70007)The timeout specified has expired: AH00957:"]),
            LogCause(
                slug: "refused", title: "Refused", url: "https://h/b/", statuses: [503],
                patterns: ["AH01114: HTTP: failed to make connection to backend: 10.0.0.9"]),
        ])
        read(
            [
                // One request of thread 30: why, then Apache's follow-on, which alone would say "refused".
                "[Fri Nov 20 10:00:16.100000 2026] [proxy:error] [pid 20:tid 30] (70007)The timeout specified has expired: AH00957: HTTP: attempt to connect to 10.0.0.9:8080 (10.0.0.9) failed",
                "[Fri Nov 20 10:00:16.100100 2026] [proxy_http:error] [pid 20:tid 30] [client 10.0.0.1:5000] AH01114: HTTP: failed to make connection to backend: 10.0.0.9",
                // Another thread, and the same thread a second later: other requests.
                "[Fri Nov 20 10:00:16.200000 2026] [proxy:error] [pid 20:tid 31] (70007)The timeout specified has expired: AH00957: HTTP: attempt to connect to 10.0.0.9:8080 (10.0.0.9) failed",
                "[Fri Nov 20 10:00:17.100100 2026] [proxy_http:error] [pid 20:tid 30] [client 10.0.0.1:5002] AH01114: HTTP: failed to make connection to backend: 10.0.0.9",
            ], into: &diagnosis)
        let found = Dictionary(uniqueKeysWithValues: diagnosis.results.map { ($0.cause.slug, $0) })
        XCTAssertEqual(found["connect-timeout"]?.count, 3)
        XCTAssertEqual(found["connect-timeout"]?.incidents, 2)
        XCTAssertEqual(found["connect-timeout"]?.upstreamsByCount.map(\.upstream), ["10.0.0.9:8080"], "a follow-on's shorter name is not a second upstream")
        XCTAssertEqual(found["refused"]?.count, 1, "AH01114 alone, a second after its thread's last line")
        XCTAssertEqual(found["refused"]?.incidents, 1)
    }

    /// A request's lines a few milliseconds apart on either side of a second's turn are one
    /// incident; a line of the same thread later in the next second is another request's.
    func testLinesOfOneRequestAcrossASecondsTurnAreOneIncident() {
        var diagnosis = Diagnosis(causes: [
            LogCause(
                slug: "tls", title: "TLS", url: "https://h/a/", statuses: [502],
                patterns: ["AH02039: Certificate Verification: Error (18): self-signed certificate"]),
            LogCause(slug: "body", title: "Body", url: "https://h/b/", statuses: [500], patterns: ["AH01084: pass request body failed to"]),
        ])
        read(
            [
                "[Tue Dec 01 17:23:21.986597 2026] [ssl:error] [pid 9464:tid 9469] [remote 127.0.0.1:22225] AH02039: Certificate Verification: Error (18): self-signed certificate",
                "[Tue Dec 01 17:23:22.015162 2026] [proxy:error] [pid 9464:tid 9469] (20014)Internal error (specific information not available): [client 127.0.0.1:58708] AH01084: pass request body failed to 127.0.0.1:22225 (127.0.0.1)",
                "[Tue Dec 01 17:23:22.515162 2026] [proxy:error] [pid 9464:tid 9470] [client 127.0.0.1:58710] AH01084: pass request body failed to 127.0.0.1:22225 (127.0.0.1)",
                "[Tue Dec 01 17:23:23.415162 2026] [proxy:error] [pid 9464:tid 9469] [client 127.0.0.1:58712] AH01084: pass request body failed to 127.0.0.1:22225 (127.0.0.1)",
            ], into: &diagnosis)
        let found = Dictionary(uniqueKeysWithValues: diagnosis.results.map { ($0.cause.slug, $0) })
        XCTAssertEqual(found["tls"]?.count, 2, "the next line of thread 9469, 29 ms later across the turn")
        XCTAssertEqual(found["tls"]?.incidents, 1)
        XCTAssertEqual(found["body"]?.count, 2, "thread 9470's, and thread 9469's a second later")
        XCTAssertEqual(found["body"]?.incidents, 2)
    }

    /// A subrequest's failure and what it made of the request that asked are two incidents, each
    /// under its own article; a second line of the subrequest stays in its incident.
    func testAnNginxSubrequestIsARequestOfItsOwn() {
        var diagnosis = Diagnosis(causes: [
            LogCause(
                slug: "refused", title: "Refused", url: "https://h/a/", statuses: [502],
                patterns: ["connect() failed (111: Connection refused) while connecting to upstream"]),
            LogCause(slug: "auth", title: "Auth", url: "https://h/b/", statuses: [500], patterns: ["auth request unexpected status: 502"]),
            LogCause(slug: "disabled", title: "Disabled", url: "https://h/c/", statuses: [502], patterns: ["upstream server temporarily disabled"]),
        ])
        read(
            [
                "2026/12/01 17:00:34 [error] 11560#11560: *2 connect() failed (111: Connection refused) while connecting to upstream, client: 127.0.0.1, server: , request: \"GET / HTTP/1.1\", subrequest: \"/auth\", upstream: \"http://127.0.0.1:4180/auth\", host: \"a\"",
                "2026/12/01 17:00:34 [warn] 11560#11560: *2 upstream server temporarily disabled while connecting to upstream, client: 127.0.0.1, server: , request: \"GET / HTTP/1.1\", subrequest: \"/auth\", upstream: \"http://127.0.0.1:4180/auth\", host: \"a\"",
                "2026/12/01 17:00:34 [error] 11560#11560: *2 auth request unexpected status: 502 while sending to client, client: 127.0.0.1, server: , request: \"GET / HTTP/1.1\", host: \"a\"",
            ], into: &diagnosis)
        let found = Dictionary(uniqueKeysWithValues: diagnosis.results.map { ($0.cause.slug, $0) })
        XCTAssertEqual(found["refused"]?.count, 2, "the subrequest's second line joins its first")
        XCTAssertEqual(found["refused"]?.incidents, 1)
        XCTAssertEqual(found["auth"]?.count, 1)
        XCTAssertEqual(found["auth"]?.incidents, 1)
        XCTAssertNil(found["disabled"])
    }

    func testNginxsAndPHPFPMsLinesOfOneRequestAreOneIncident() {
        var diagnosis = Diagnosis(causes: [
            LogCause(
                slug: "killed", title: "Killed", url: "https://h/killed/", statuses: [502],
                patterns: [
                    "recv() failed (104: Connection reset by peer) while reading response header from upstream",
                    "execution timed out (2.635896 sec), terminating", "exited on signal 15 (SIGTERM) after 4.003175 seconds from start",
                ])
        ])
        let fpm = [
            "[25-Nov-2026 06:00:01] WARNING: [pool www] child 812, script '/srv/www/slow.php' (request: \"GET /slow.php?id=7\") execution timed out (1.002 sec), terminating",
            "[25-Nov-2026 06:00:01] WARNING: [pool www] child 812 exited on signal 15 (SIGTERM) after 3.01 seconds from start",
            "[25-Nov-2026 06:00:01] NOTICE: [pool www] child 830 started",
        ]
        let nginx = [
            "2026/11/25 06:00:01 [error] 12#12: *5 recv() failed (104: Connection reset by peer) while reading response header from upstream, client: 10.0.0.1, server: shop, request: \"GET /slow.php?id=7 HTTP/1.1\", upstream: \"fastcgi://unix:/run/php/php8.2-fpm.sock:\", host: \"shop\"",
            // Another request in the same second, and the same request a second later: other incidents.
            "2026/11/25 06:00:01 [error] 12#12: *6 recv() failed (104: Connection reset by peer) while reading response header from upstream, client: 10.0.0.1, server: shop, request: \"GET /other.php HTTP/1.1\"",
            "2026/11/25 06:00:02 [error] 12#12: *7 recv() failed (104: Connection reset by peer) while reading response header from upstream, client: 10.0.0.1, server: shop, request: \"GET /slow.php HTTP/1.1\"",
        ]
        // One file after the other, in either order.
        for log in [fpm + nginx, nginx + fpm] {
            var diagnosis = diagnosis
            read(log, into: &diagnosis)
            XCTAssertEqual(diagnosis.results.first?.count, 5)
            XCTAssertEqual(diagnosis.results.first?.incidents, 3, "PHP-FPM's two lines of child 812 and nginx's *5 are one")
            XCTAssertEqual(diagnosis.unexplained, 0)
            XCTAssertEqual(diagnosis.routine, 1, "a child started, as PHP-FPM's notice says")
        }
    }

    func testAnInfoLineOfTheSameConnectionIsNotPartOfTheIncident() {
        var diagnosis = Diagnosis(causes: causes)
        read(
            [
                "2026/11/20 10:00:01 [error] 12#12: *5 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.0.0.1",
                "2026/11/20 10:00:01 [warn] 12#12: *5 upstream sent too big header while reading response header from upstream, client: 10.0.0.1",
                "2026/11/20 10:00:01 [info] 12#12: *5 client 10.0.0.1 closed keepalive connection",
                "2026/11/20 10:00:01 [error] 12#12: *6 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.0.0.1",
            ], into: &diagnosis)
        XCTAssertEqual(diagnosis.results.map(\.cause.slug), ["timed-out"])
        XCTAssertEqual(diagnosis.results.first?.count, 3)
        XCTAssertEqual(diagnosis.results.first?.incidents, 2, "connections *5 and *6")
        XCTAssertEqual(diagnosis.unexplained, 1, "the keepalive line")
    }

    func testAStackTraceGoesWhereTheLineItContinuesWent() {
        var diagnosis = Diagnosis(causes: [
            LogCause(slug: "app", title: "App", url: "https://h/app/", statuses: [500], patterns: ["[ERROR] Error handling request"])
        ])
        let traceback = [
            "Traceback (most recent call last):", #"  File "/srv/app.py", line 2, in application"#, "    return 1 / 0", "           ~~^~~",
            "ZeroDivisionError: division by zero",
        ]
        read(
            ["[2026-11-25 06:31:06 +0000] [6345] [ERROR] Error handling request /orders/7"] + traceback
                + ["During handling of the above exception, another exception occurred:"] + traceback
                // A traceback after a line no article explains is unexplained with it, as one shape.
                + ["[2026-11-25 06:31:07 +0000] [6345] [ERROR] Exception in worker process"] + traceback
                + ["Exception in thread \"main\" java.lang.IllegalStateException: closed", "\tat com.example.Pool.take(Pool.java:42)"],
            into: &diagnosis)
        XCTAssertEqual(diagnosis.lines, 20)
        XCTAssertEqual(diagnosis.results.first?.count, 12, "the request's line, two tracebacks and the line between them")
        XCTAssertEqual(diagnosis.results.first?.incidents, 1)
        XCTAssertEqual(diagnosis.unexplained, 8)
        XCTAssertEqual(diagnosis.topShapes(10).map(\.count), [1, 1], "the worker's line and Java's, not their frames")
    }

    /// nginx quotes a PROXY protocol header it could not read as it came: a plain request's
    /// lines run over several lines of the log until the quote closes.
    func testAnNginxEntryWhoseQuoteRunsOverLinesGoesWhereItsFirstLineWent() {
        var diagnosis = Diagnosis(causes: [
            LogCause(slug: "proxy-protocol", title: "PROXY", url: "https://h/pp/", statuses: [400], patterns: [#"broken header: ""#])
        ])
        read(
            [
                #"2026/12/07 17:07:05 [error] 32195#32195: *1 broken header: "GET / HTTP/1.1"#, "Host: 127.0.0.1:8080", "User-Agent: curl/7.88.1",
                "Accept: */*", #"" while reading PROXY protocol, client: 127.0.0.1, server: 0.0.0.0:8080"#,
                // A line after the quote closed stands alone, as does the next entry.
                "Host: not inside a quote",
                #"2026/12/07 17:07:06 [error] 32195#32195: *2 broken header: "GET /health HTTP/1.1"#,
                "2026/12/07 17:07:07 [info] 32195#32195: *3 client closed connection while reading PROXY protocol, client: 10.0.0.1",
            ], into: &diagnosis)
        XCTAssertEqual(diagnosis.results.first?.count, 6, "the first entry's five lines and the second's one")
        XCTAssertEqual(diagnosis.unexplained, 2, "the line after the quote closed, and the info line")
    }

    /// A quote that never closes (an entry quoting one `"`, another program's lines after it)
    /// holds no more lines than an nginx entry can.
    func testAnNginxQuoteThatNeverClosesEnds() {
        var continuation = LogContinuation()
        XCTAssertFalse(continuation.continues(#"2026/12/07 17:07:05 [info] 7#7: *1 client sent invalid header line: "X-A: 1" \" x"#))
        let held = (0..<300).map { _ in continuation.continues("another program's line") }
        XCTAssertEqual(held.prefix { $0 }.count, LogContinuation.maximumReportLines)
        XCTAssertFalse(held.last ?? true)
    }

    func testAnIndentedFirstLineAndALineAfterATracebackStandAlone() {
        var continuation = LogContinuation()
        XCTAssertFalse(continuation.continues("  indented, but nothing before it"))
        XCTAssertFalse(continuation.continues("ValueError: not after a traceback"))
        XCTAssertTrue(continuation.continues("Traceback (most recent call last):"))
        XCTAssertTrue(continuation.continues(#"  File "/srv/app.py", line 2, in application"#))
        XCTAssertTrue(continuation.continues("KeyError: 'id'"))
        XCTAssertFalse(continuation.continues("[2026-11-25 06:31:08 +0000] [6345] [INFO] Worker exiting (pid: 6345)"))
    }

    func testUWSGIsReportsGoWhereTheLineBeforeThemWent() {
        var diagnosis = Diagnosis(causes: [
            LogCause(
                slug: "killed", title: "Killed", url: "https://h/killed/", statuses: [502],
                patterns: ["*** HARAKIRI ON WORKER 1 (pid: 1234, try: 1) ***", "!!! uWSGI process 1234 got Segmentation Fault !!!"])
        ])
        read(
            [
                "Wed Nov 25 08:47:12 2026 - *** HARAKIRI ON WORKER 1 (pid: 3546, try: 1) ***",
                // harakiri-verbose's account, read from /proc before the report.
                "HARAKIRI: -- syscall> 230 0x1 0x1 0x7ffe438933b0 0x0 0x0 0x0 0x7ffe43893398 0x7f6790741503",
                "HARAKIRI: -- wchan> hrtimer_nanosleep",
                "Wed Nov 25 08:47:12 2026 - HARAKIRI !!! worker 1 status !!!",
                "Wed Nov 25 08:47:12 2026 - HARAKIRI [core 0] 127.0.0.1 - GET /slow since 1795596430",
                "Wed Nov 25 08:47:12 2026 - HARAKIRI !!! end of worker 1 status !!!",
                "!!! uWSGI process 3375 got Segmentation Fault !!!", "*** backtrace of 3375 ***",
                "uwsgi_python3(uwsgi_backtrace+0x2f) [0x56229e9aa4df]", "/lib/x86_64-linux-gnu/libc.so.6(+0x3c050) [0x7fa5526ae050]",
                "*** end of backtrace ***",
                // After the report's last line, lines stand alone again: this one is routine.
                "Respawned uWSGI worker 1 (new pid: 3458)",
            ], into: &diagnosis)
        XCTAssertEqual(diagnosis.results.first?.count, 11, "both failures with their reports")
        XCTAssertEqual(diagnosis.results.first?.incidents, 2)
        XCTAssertEqual(diagnosis.results.first?.first, "Wed Nov 25 08:47:12 2026", "uWSGI's date, as it writes it")
        XCTAssertEqual(diagnosis.routine, 1)
        XCTAssertEqual(diagnosis.unexplained, 0)
        // A report with no line before it has nothing to continue.
        var alone = LogContinuation()
        XCTAssertFalse(alone.continues("*** backtrace of 3375 ***"))
        // A report cut short ends after its longest length: the lines after it stand alone.
        var cut = LogContinuation()
        XCTAssertFalse(cut.continues("!!! uWSGI process 3375 got Segmentation Fault !!!"))
        XCTAssertTrue(cut.continues("*** backtrace of 3375 ***"))
        for _ in 0..<LogContinuation.maximumReportLines { XCTAssertTrue(cut.continues("uwsgi_python3(+0x2b61e) [0x56229e95961e]")) }
        XCTAssertFalse(cut.continues("spawned uWSGI worker 1 (pid: 3458, cores: 1)"))
    }

    /// uWSGI logs a request no app took (`app: -1`) just after the line that says why: a
    /// request it refused, or no app loaded. With nothing before it, the line stands alone.
    func testUWSGIsLogOfARefusedRequestGoesWhereTheRefusalWent() {
        var diagnosis = Diagnosis(causes: [
            LogCause(
                slug: "too-large", title: "Too large", url: "https://h/too-large/", statuses: [502], patterns: ["Invalid (too big) CONTENT_LENGTH. skip."]),
            LogCause(
                slug: "no-app", title: "No app", url: "https://h/no-app/", statuses: [500],
                patterns: ["--- no python application found, check your startup logs for errors ---", "[pid: 1234|app: -1|req: -1/1]"]),
        ])
        read(
            [
                "Invalid (too big) CONTENT_LENGTH. skip.",
                "[pid: 19308|app: -1|req: -1/1]  () {6 vars in 493 bytes} [Wed Dec  2 00:07:50 2026] POST  => generated 0 bytes in 0 msecs ( 500) 0 headers in 0 bytes (0 switches on core 0)",
                "--- no python application found, check your startup logs for errors ---",
                "[pid: 1237|app: -1|req: -1/2] 10.254.12.68 () {32 vars in 362 bytes} [Wed Apr 17 13:43:53 2019] GET /api/planes => generated 21 bytes in 0 msecs (HTTP/1.1 500) 2 headers in 83 bytes (0 switches on core 0)",
            ], into: &diagnosis)
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: diagnosis.results.map { ($0.cause.slug, $0.count) }), ["too-large": 2, "no-app": 2])
        var alone = LogContinuation()
        XCTAssertFalse(
            alone.continues("[pid: 19308|app: -1|req: -1/1] 127.0.0.1 () {36 vars in 456 bytes} [Wed Dec  2 00:10:29 2026] POST / => generated 0 bytes"))
        XCTAssertFalse(alone.continues("[pid: 19308|app: 0|req: 1/2] 127.0.0.1 () {36 vars in 456 bytes}"))
        // In a request log kept apart, the line before is another request's.
        XCTAssertFalse(alone.continues("[pid: 19308|app: -1|req: -1/3] 127.0.0.1 () {36 vars in 456 bytes}"))
        XCTAssertFalse(alone.continues("Invalid (too big) CONTENT_LENGTH. skip."))
        XCTAssertTrue(alone.continues("[pid: 19308|app: -1|req: -1/4] 127.0.0.1 () {36 vars in 456 bytes}"))
    }

    func testStatusesAreCountedWhereTheLineSaysThem() {
        var diagnosis = Diagnosis(causes: [
            LogCause(slug: "closed", title: "Closed", url: "https://h/closed/", statuses: [502], patterns: ["200 1076 - - SD--", "\"msg\":\"EOF\""])
        ])
        read(
            [
                #"Nov 20 10:00:04 lb haproxy[999]: 10.0.0.1:51234 [20/Nov/2026:10:00:04.123] web app/app1 0/0/1/2/1003 200 51234 - - SD-- 1/1/0/0/0 0/0 "GET /big HTTP/1.1""#,
                #"10.0.0.2:51235 [20/Nov/2026:10:00:05.123] web app/app2 0/0/1/2/1003 206 4096 - - SD-- 1/1/0/0/0 0/0 "GET /video HTTP/1.1""#,
                #"{"level":"error","ts":1795588184.4,"logger":"http.log.error","msg":"EOF","request":{"remote_ip":"10.0.0.1","headers":{"Accept":["*/*"]}},"duration":0.001,"status":502}"#,
                #"{"level":"error","ts":1795588185.4,"logger":"http.log.error","msg":"EOF","request":{"remote_ip":"10.0.0.1"},"duration":0.001,"status":502}"#,
            ], into: &diagnosis)
        let found = diagnosis.results.first
        XCTAssertEqual(found?.statusesLogged.map(\.status), [502, 200, 206])
        XCTAssertEqual(found?.statusesLogged.map(\.count), [2, 1, 1])
    }

    func testJournaldsPrefixHidesNoStructure() {
        var diagnosis = Diagnosis(causes: [
            LogCause(slug: "app", title: "App", url: "https://h/app/", statuses: [500], patterns: ["[ERROR] Error handling request", "\"msg\":\"EOF\""])
        ])
        read(
            [
                "Nov 25 06:31:06 web1 gunicorn[6345]: [2026-11-25 06:31:06 +0000] [6345] [ERROR] Error handling request /orders/7",
                "Nov 25 06:31:06 web1 gunicorn[6345]: Traceback (most recent call last):",
                #"Nov 25 06:31:06 web1 gunicorn[6345]:   File "/srv/app.py", line 2, in application"#,
                "Nov 25 06:31:06 web1 gunicorn[6345]:     return 1 / 0",
                "Nov 25 06:31:06 web1 gunicorn[6345]: ZeroDivisionError: division by zero",
                #"2026-11-25T06:31:07+0000 web1 caddy[640]: {"level":"error","ts":1795588267.1,"logger":"http.log.error","msg":"EOF","duration":0.001,"status":502}"#,
            ], into: &diagnosis)
        XCTAssertEqual(diagnosis.unexplained, 0, "the traceback continues the request's line")
        XCTAssertEqual(diagnosis.results.first?.count, 6)
        XCTAssertEqual(diagnosis.results.first?.incidents, 2)
        XCTAssertEqual(diagnosis.results.first?.statusesLogged.map(\.status), [502], "Caddy's status behind the prefix")
    }

    /// Lines as people paste them from `docker compose logs`, `docker logs -t`, `kubectl logs
    /// --prefix` and a log store's export: the request's lines still join in one incident.
    func testWhatContainersAndLogStoresWriteBeforeALineHidesNoStructure() {
        var diagnosis = Diagnosis(causes: causes)
        read(
            [
                "web-1  | 2026/11/25 06:31:06 [error] 7#7: *1 upstream sent too big header while reading response header from upstream, client: 10.0.0.1",
                "2026-11-25T06:31:06.717765840Z 2026/11/25 06:31:06 [warn] 7#7: *1 an upstream response is buffered to a temporary file",
                "[pod/web-7d9/nginx] 2026/11/25 06:31:07 [notice] 1#1: start worker processes",
                "2026-11-25 06:31:08.874\t2026/11/25 06:31:08 [notice] 1#1: signal process started",
                "2026-11-25 07:31:09.296419538 +0100 CET [web-1] [25-Nov-2026 06:31:09] NOTICE: [pool web] pm.start_servers is not set. It's been set to 1.",
                "2026-11-25 06:31:10.1 UTC [web-1] 2026/11/25 06:31:10 [notice] 1#1: signal process started",
            ], into: &diagnosis)
        XCTAssertEqual(diagnosis.results.map(\.cause.slug), ["header-too-big"])
        XCTAssertEqual(diagnosis.results.first?.count, 2, "the warning of the same request behind a runtime's time joins it")
        XCTAssertEqual(diagnosis.results.first?.incidents, 1)
        XCTAssertEqual(
            diagnosis.routine, 4, "nginx's and PHP-FPM's notices outside a request, behind kubectl's, a log store's and a Go carrier's time, zone and source")
        XCTAssertFalse(LogRoutine.isRoutine("2026-11-25 06:31:10 UTC [web-1] pm.start_servers is not set"), "a time followed by the message is the line's own")
    }

    /// nginx and PHP-FPM on Alpine (musl) word errno 110, 113 and 98 their own way; the articles
    /// quote glibc's.
    func testMuslsErrnoWordingMatchesGlibcsPattern() {
        var diagnosis = Diagnosis(causes: [
            LogCause(
                slug: "timed-out", title: "Timed out", url: "https://h/t/", statuses: [504],
                patterns: ["upstream timed out (110: Connection timed out) while reading response header from upstream"]),
            LogCause(slug: "refused", title: "Refused", url: "https://h/r/", statuses: [502], patterns: ["(113)No route to host: AH00957:"]),
            LogCause(
                slug: "bind", title: "Bind", url: "https://h/b/", statuses: [502],
                patterns: ["ERROR: unable to bind listening socket for address '127.0.0.1:9000': Address already in use (98)"]),
        ])
        read(
            [
                "2026/11/25 06:31:06 [error] 7#7: *1 upstream timed out (110: Operation timed out) while reading response header from upstream, client: 10.0.0.1",
                "[Wed Nov 25 06:31:06.1 2026] [proxy:error] [pid 9:tid 10] (113)Host is unreachable: AH00957: http: attempt to connect to 10.0.0.9:80 (10.0.0.9:80) failed",
                "2026/11/25 06:31:07 [error] 7#7: *2 upstream timed out (110: Host is unreachable) while reading response header from upstream, client: 10.0.0.1",
                "[12-Jun-2026 07:54:41] ERROR: unable to bind listening socket for address '0.0.0.0:9000': Address in use (98)",
            ], into: &diagnosis)
        XCTAssertEqual(diagnosis.results.map(\.cause.slug).sorted(), ["bind", "refused", "timed-out"])
        XCTAssertEqual(diagnosis.unexplained, 1, "a text neither C library gives errno 110 is not read as it")
    }

    /// An nginx whose errno table is empty writes every errno as `Unknown error` (a line quoted
    /// from mattermost/mattermost-load-test-ng#719): its number alone says which it is.
    func testAnErrnoWithoutItsTextIsReadByItsNumber() {
        var diagnosis = Diagnosis(causes: [
            LogCause(
                slug: "refused", title: "Refused", url: "https://h/r/", statuses: [502],
                patterns: ["connect() failed (111: Connection refused) while connecting to upstream"]),
            LogCause(
                slug: "connect-timeout", title: "Connect timeout", url: "https://h/c/", statuses: [504],
                patterns: ["upstream timed out (110: Connection timed out) while connecting to upstream"]),
        ])
        read(
            [
                #"2024/03/26 16:06:59 [error] 3964#3964: *1 connect() failed (111: Unknown error) while connecting to upstream, client: 172.27.137.145, server: _, request: "GET /api/v4/system/ping?get_server_status=true&use_rest_semantics=false HTTP/1.1", upstream: "http://172.27.182.102:8065/api/v4/system/ping?get_server_status=true&use_rest_semantics=false", host: "ec2-54-146-184-87.compute-1.amazonaws.com""#,
                "2024/03/26 16:07:00 [error] 3964#3964: *2 connect() failed (110: Unknown error) while connecting to upstream, client: 10.0.0.1",
            ], into: &diagnosis)
        XCTAssertEqual(diagnosis.results.map(\.cause.slug), ["refused"])
        XCTAssertEqual(diagnosis.unexplained, 1, "errno 110 is not errno 111, whatever the text says")
        XCTAssertEqual(ErrnoWording.unknownWording(of: "no errno here: (SSL: error:1408F10B)"), nil)
    }

    func testRoutineLinesAreCountedApartWithWhatContinuesThem() {
        var diagnosis = Diagnosis(causes: [
            LogCause(slug: "down", title: "Down", url: "https://h/down/", statuses: [503], patterns: ["is DOWN, reason: Layer4 connection problem"])
        ])
        read(
            [
                "[NOTICE]   (22549) : haproxy version is 2.6.12-1+deb12u4",
                "[WARNING]  (22549) : config : missing timeouts for frontend 'web'.",
                "   | While not properly invalid, you will certainly encounter various problems",
                "   | with such a configuration.",
                "[WARNING]  (22549) : Server app/app1 is DOWN, reason: Layer4 connection problem, info: \"Connection refused\".",
                "[ALERT]    (22549) : backend 'app' has no server available!",
                "   | a line after it",
            ], into: &diagnosis)
        XCTAssertEqual(diagnosis.routine, 4, "the notice, the configuration warning and its two lines")
        XCTAssertEqual(diagnosis.results.map(\.count), [1])
        XCTAssertEqual(diagnosis.unexplained, 2, "the alert and what continues it")
        XCTAssertEqual(diagnosis.topShapes(5).map(\.shape), ["[ALERT]    (N) : backend 'app' has no server available!"])
    }

    func testAnArticleExplainsARoutineLineItNames() {
        var diagnosis = Diagnosis(causes: [
            LogCause(slug: "tls", title: "TLS", url: "https://h/tls/", statuses: [], patterns: ["compiled against a newer library"])
        ])
        read(
            ["[Thu Nov 26 17:13:39.595544 2026] [ssl:warn] [pid 1:tid 1] AH01882: Init: this version of mod_ssl was compiled against a newer library"],
            into: &diagnosis)
        XCTAssertEqual(diagnosis.routine, 0)
        XCTAssertEqual(diagnosis.results.map(\.cause.slug), ["tls"])
    }
}
