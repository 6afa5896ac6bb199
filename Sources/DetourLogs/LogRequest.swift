/// Which request a line was written for, where the log says so: nginx names the worker and the
/// connection (`1234#1234: *56`), Apache the process and thread (`[pid 1234:tid 5678]`), which
/// serves one request at a time, PHP-FPM the child (`child 1234`). Lines of one request written
/// in the same second are one incident: Apache's `AH01114: HTTP: failed to make connection to
/// backend` after the `AH00957` line that says why, nginx's `upstream server temporarily
/// disabled` after its `connect() failed`, PHP-FPM's `exited on signal 15` after `execution
/// timed out`. Across servers, the request itself joins them: nginx's `request: "GET /x.php
/// HTTP/1.1"` and PHP-FPM's `(request: "GET /x.php")` in the same second (of the day: the two
/// write their times differently) are one incident too. A subrequest is a request of its own.
struct LogRequest: Equatable {
    /// The worker and connection (nginx), process and thread (Apache) or child (PHP-FPM), hashed.
    var key: UInt64?
    /// The request's method and path as the line quotes them (nginx, PHP-FPM), hashed.
    var requestKey: UInt64?
    /// Whether the line is the application's (PHP-FPM's) rather than the proxy's: the request
    /// joins lines of the two, never two of one side (two visitors asking for the same page in
    /// the same second are two requests to nginx).
    var isApplication = false
    /// The second of the day the line was written (`LogRequest.secondOfDay`).
    var second: UInt64
    /// Whether the line was written in the first tenth of its second, as far as its time says:
    /// the line before it of the same request may carry the second before.
    var secondJustBegun = false
    /// Whether the line is a warning or worse, not `info`, `notice` or `debug`: only such
    /// lines belong to a failed request's incident (an idle keepalive connection closing later
    /// in the same second does not).
    var isProblem: Bool

    /// Bytes of the line after its time in which the request is looked for.
    private static let lookedAt = 160

    /// The keys a line of the request's incident is remembered by, whichever the line has, each
    /// mixed with its second: the same request a second later, or another in the same second,
    /// has other keys. The request it quotes is remembered for the other side.
    var keptKeys: [UInt64] { [mixed(key), mixed(requestKey.map { $0 ^ Self.side(isApplication) })].compactMap { $0 } }

    /// The keys a line looks its incident up by: its own, and the request as the other side
    /// quoted it; in the first tenth of a second, its own in the second before too (a
    /// request's lines a few milliseconds apart on either side of a second's turn).
    var lookedUpKeys: [UInt64] {
        [mixed(key), mixed(requestKey.map { $0 ^ Self.side(!isApplication) }), secondJustBegun ? mixed(key, in: second &- 1) : nil].compactMap { $0 }
    }

    private func mixed(_ key: UInt64?, in second: UInt64? = nil) -> UInt64? { key.map { ($0 ^ (second ?? self.second)) &* 0x100_0000_01b3 } }

    private static func side(_ application: Bool) -> UInt64 { application ? 0x5bd1_e995_5bd1_e995 : 0 }

    /// The request of `line`, whose time (`LogTime.of`) is `time`.
    static func of(_ line: UnsafeBufferPointer<UInt8>, time: LogTime?) -> LogRequest? {
        guard let time, !time.isEpoch, time.prefix > 0 else { return nil }
        let end = min(line.count, time.prefix + lookedAt)
        let clock = secondOfDay(line[time.range])
        // The quoted request is looked for only in the lines that write one (nginx, PHP-FPM).
        if let (key, level) = nginx(line, from: time.prefix, to: end) {
            // A subrequest (`auth_request`, SSI, a mirror) is a request of its own on the
            // connection: what its failure made of the main request (`auth request unexpected
            // status: 502`) is another incident, which another article explains.
            let ownKey = subrequest(line, from: time.prefix).map { key ^ $0 } ?? key
            return LogRequest(
                key: ownKey, requestKey: quotedRequest(line, from: time.prefix), second: clock.second, secondJustBegun: clock.justBegun,
                isProblem: isProblem(level))
        }
        if let (key, level) = apache(line, from: time.prefix, to: end) {
            return LogRequest(key: key, second: clock.second, secondJustBegun: clock.justBegun, isProblem: isProblem(level))
        }
        guard let (key, problem) = phpFPM(line, from: time.prefix, to: end) else { return nil }
        return LogRequest(
            key: key, requestKey: quotedRequest(line, from: time.prefix), isApplication: true, second: clock.second, secondJustBegun: clock.justBegun,
            isProblem: problem)
    }

    /// Whether nginx's or Apache's level is a warning or worse.
    private static func isProblem(_ level: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        !["info", "notice", "debug"].contains { quiet in level.elementsEqual(quiet.utf8) } && !level.starts(with: "trace".utf8)
    }

    /// ` WARNING: [pool www] child 1234…`: the child, and whether the level is a warning or
    /// worse (not NOTICE or DEBUG).
    private static func phpFPM(_ line: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> (UInt64, Bool)? {
        let child = Array("] child ".utf8)
        var at = start
        while at < end, line[at] == UInt8(ascii: " ") { at += 1 }
        let levelStart = at
        while at < end, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(line[at]) { at += 1 }
        guard at > levelStart, at + 1 < end, line[at] == UInt8(ascii: ":"),
            let found = LogSearch.end(of: child, in: UnsafeBufferPointer(rebasing: line[at..<end]))
        else { return nil }
        let keyStart = at + found
        var keyEnd = keyStart
        while keyEnd < end, LogPiece.isDigit(line[keyEnd]) { keyEnd += 1 }
        guard keyEnd > keyStart else { return nil }
        let level = line[levelStart..<at]
        let problem = !["NOTICE", "DEBUG"].contains { quiet in level.elementsEqual(quiet.utf8) }
        return (LogHash.of(line[keyStart..<keyEnd]), problem)
    }

    /// `request: "GET /x.php?id=7 HTTP/1.1"` (nginx) or `(request: "GET /x.php?id=7")`
    /// (PHP-FPM): the method and the path, without the query, hashed.
    private static func quotedRequest(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt64? {
        let marker = Array("request: \"".utf8)
        guard let found = LogSearch.end(of: marker, in: UnsafeBufferPointer(rebasing: line[start...])) else { return nil }
        let methodStart = start + found
        var at = methodStart
        while at < line.count, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(line[at]) { at += 1 }
        guard at > methodStart, at + 1 < line.count, line[at] == UInt8(ascii: " "), line[at + 1] == UInt8(ascii: "/") else { return nil }
        at += 1
        while at < line.count, ![UInt8(ascii: " "), UInt8(ascii: "?"), UInt8(ascii: "\"")].contains(line[at]) { at += 1 }
        return LogHash.of(line[methodStart..<at])
    }

    /// nginx's `subrequest: "/auth"`: the subrequest's path, hashed.
    private static func subrequest(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt64? {
        let marker = Array(", subrequest: \"".utf8)
        guard let found = LogSearch.end(of: marker, in: UnsafeBufferPointer(rebasing: line[start...])) else { return nil }
        let pathStart = start + found
        guard let close = line[pathStart...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return LogHash.of(line[pathStart..<close]) &* 0x9e37_79b9_7f4a_7c15
    }

    /// ` [error] 1234#1234: *56 `: the level, then the key from the pid to the connection.
    private static func nginx(_ line: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> (UInt64, Slice<UnsafeBufferPointer<UInt8>>)? {
        var at = start
        while at < end, line[at] == UInt8(ascii: " ") { at += 1 }
        guard at < end, line[at] == UInt8(ascii: "["), let close = line[at..<end].firstIndex(of: UInt8(ascii: "]")) else { return nil }
        let level = line[(at + 1)..<close]
        var cursor = close + 1
        while cursor < end, line[cursor] == UInt8(ascii: " ") { cursor += 1 }
        let keyStart = cursor
        while cursor < end, LogPiece.isDigit(line[cursor]) || line[cursor] == UInt8(ascii: "#") { cursor += 1 }
        guard cursor + 3 < end, cursor > keyStart, line[cursor] == UInt8(ascii: ":"), line[cursor + 1] == UInt8(ascii: " "),
            line[cursor + 2] == UInt8(ascii: "*")
        else { return nil }
        cursor += 3
        while cursor < end, LogPiece.isDigit(line[cursor]) { cursor += 1 }
        return (LogHash.of(line[keyStart..<cursor]), level)
    }

    /// ` [proxy:error] [pid 1234:tid 5678] `: the level after the module, the key inside the
    /// second bracket.
    private static func apache(_ line: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> (UInt64, Slice<UnsafeBufferPointer<UInt8>>)? {
        var at = start
        while at < end, line[at] == UInt8(ascii: " ") { at += 1 }
        guard at < end, line[at] == UInt8(ascii: "["), let close = line[at..<end].firstIndex(of: UInt8(ascii: "]")) else { return nil }
        let module = line[(at + 1)..<close]
        guard let colon = module.lastIndex(of: UInt8(ascii: ":")) else { return nil }
        let pid = Array("[pid ".utf8)
        let keyStart = close + 2
        guard keyStart + pid.count < end, line[(close + 1)..<keyStart].first == UInt8(ascii: " "), line[keyStart..<(keyStart + pid.count)].elementsEqual(pid),
            let keyEnd = line[keyStart..<end].firstIndex(of: UInt8(ascii: "]"))
        else { return nil }
        return (LogHash.of(line[keyStart..<keyEnd]), module[(colon + 1)...])
    }

    /// The second of the day the time says (`23:07:10`, whatever surrounds it), so servers that
    /// write the date differently agree on it, and whether its fraction (`23:07:10.04`) puts it
    /// in the second's first tenth; the whole time's hash when it has no such clock.
    /// The date does not count: two lines of one connection at the same time on two days would
    /// be one incident, which takes a worker and connection number (or a thread) to come back
    /// at that very second.
    private static func secondOfDay(_ time: Slice<UnsafeBufferPointer<UInt8>>) -> (second: UInt64, justBegun: Bool) {
        var at = time.startIndex
        while at + 8 <= time.endIndex {
            if time[at + 2] == UInt8(ascii: ":"), time[at + 5] == UInt8(ascii: ":") {
                var seconds: UInt64 = 0
                var isClock = true
                for (offset, scale) in [(0, 3600), (3, 60), (6, 1)] as [(Int, UInt64)] {
                    let tens = time[at + offset]
                    let units = time[at + offset + 1]
                    guard LogPiece.isDigit(tens), LogPiece.isDigit(units) else {
                        isClock = false
                        break
                    }
                    seconds += (UInt64(tens - UInt8(ascii: "0")) * 10 + UInt64(units - UInt8(ascii: "0"))) * scale
                }
                if isClock {
                    // `.0…` after the clock (Apache's microseconds, an ISO stamp's fraction):
                    // the first tenth of the second.
                    let justBegun = at + 9 < time.endIndex && time[at + 8] == UInt8(ascii: ".") && time[at + 9] == UInt8(ascii: "0")
                    return (seconds, justBegun)
                }
            }
            at += 1
        }
        return (LogHash.of(time), false)
    }
}
