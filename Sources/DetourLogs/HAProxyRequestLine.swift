/// The fields of HAProxy's request log (`option httplog`) that `detour diagnose` reads: `client:port
/// [date] frontend backend/server TR/Tw/Tc/Tr/Ta status bytes cookie cookie state …`, after a
/// syslog prefix or none. Its five timers tell it from the TCP log (`option tcplog`: three
/// timers, then bytes, no status). The common log format's line (`HAProxyCLFLine`) gives the same.
struct HAProxyRequestLine {
    /// Where `backend/server` is written (`app/<NOSRV>` when no server was chosen).
    var server: Range<Int>
    /// The status the visitor got.
    var status: Int
    /// The first of the termination state's characters, who ended the session: `-` no one
    /// (it ended normally), `L` HAProxy answering itself, `C` the client, `S` the server, …
    var endedBy: UInt8?

    /// Bytes after the date in which the fields up to the termination state are looked for.
    private static let lookedAt = 200

    static func of(_ line: UnsafeBufferPointer<UInt8>) -> HAProxyRequestLine? {
        let slash = UInt8(ascii: "/")
        // The date's brackets: syslog's `haproxy[123]:` may come first.
        var from = 0
        while let open = line[from...].firstIndex(of: UInt8(ascii: "[")), let close = line[open...].firstIndex(of: UInt8(ascii: "]")) {
            from = close
            guard close - open > 20, line[(open + 1)..<close].contains(slash) else { continue }
            // Read field by field, making no array: this runs on every line of an access log.
            var fields = LogFieldReader(line: line, at: close + 1, end: min(line.count, close + 1 + lookedAt))
            guard fields.next() != nil, let server = fields.next(), line[server].contains(slash),
                let timers = fields.next(),
                line[timers].allSatisfy({ LogPiece.isDigit($0) || $0 == slash || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }),
                line[timers].count(where: { $0 == slash }) == 4,
                let statusField = fields.next(), statusField.count == 3, line[statusField].allSatisfy(LogPiece.isDigit)
            else { return nil }
            let status = line[statusField].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            // bytes, the captured request and response cookies, then the state: `LR--`, `SD--`.
            for _ in 0..<3 { _ = fields.next() }
            let state = fields.next().flatMap { $0.count == 4 ? line[$0.lowerBound] : nil }
            return HAProxyRequestLine(server: server, status: status, endedBy: state)
        }
        // The same fields in the common log format (`option httplog clf`).
        return HAProxyCLFLine.of(line).map { HAProxyRequestLine(server: $0.server, status: $0.status, endedBy: line[$0.state.lowerBound]) }
    }
}
