/// Which request a line was written for, where the log says so: nginx names the worker and the
/// connection (`1234#1234: *56`), Apache the process and thread (`[pid 1234:tid 5678]`), which
/// serves one request at a time. Lines of one request written in the same second are one
/// incident: Apache's `AH01114: HTTP: failed to make connection to backend` after the
/// `AH00957` line that says why, nginx's `upstream server temporarily disabled` after its
/// `connect() failed`.
struct LogRequest: Equatable {
    /// The worker and connection (nginx) or process and thread (Apache), hashed.
    var key: UInt64
    /// The second the line was written, hashed from its time without a fraction.
    var second: UInt64
    /// Whether the line is a warning or worse, not `info`, `notice` or `debug`: only such
    /// lines belong to a failed request's incident (an idle keepalive connection closing later
    /// in the same second does not).
    var isProblem: Bool

    /// Bytes of the line after its time in which the request is looked for.
    private static let lookedAt = 160

    /// The request of `line`, whose time (`LogTime.of`) is `time`.
    static func of(_ line: UnsafeBufferPointer<UInt8>, time: LogTime?) -> LogRequest? {
        guard let time, !time.isEpoch, time.prefix > 0 else { return nil }
        let end = min(line.count, time.prefix + lookedAt)
        guard let (key, level) = nginx(line, from: time.prefix, to: end) ?? apache(line, from: time.prefix, to: end) else { return nil }
        let problem = !["info", "notice", "debug"].contains { quiet in level.elementsEqual(quiet.utf8) } && !level.starts(with: "trace".utf8)
        return LogRequest(key: key, second: secondHash(line[time.range]), isProblem: problem)
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

    /// The time's bytes without a fraction of a second (Apache writes microseconds).
    private static func secondHash(_ time: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var inFraction = false
        var previous: UInt8 = 0
        for byte in time {
            if byte == UInt8(ascii: "."), LogPiece.isDigit(previous) {
                inFraction = true
            } else if inFraction, LogPiece.isDigit(byte) {
                continue
            } else {
                inFraction = false
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            previous = byte
        }
        return hash
    }
}
