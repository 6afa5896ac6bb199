/// The fields of HAProxy's request log (`option httplog`) that `detour diagnose` reads: `client:port
/// [date] frontend backend/server TR/Tw/Tc/Tr/Ta status bytes cookie cookie state …`, after a
/// syslog prefix or none. Its five timers tell it from the TCP log (`option tcplog`: three
/// timers, then bytes, no status).
struct HAProxyRequestLine {
    /// Where `backend/server` is written (`app/<NOSRV>` when no server was chosen).
    var server: Range<Int>
    /// The status the visitor got.
    var status: Int
    /// The first of the termination state's characters, who ended the session: `-` no one
    /// (it ended normally), `L` HAProxy answering itself, `C` the client, `S` the server, …
    var endedBy: UInt8?

    static func of(_ line: UnsafeBufferPointer<UInt8>) -> HAProxyRequestLine? {
        let space = UInt8(ascii: " ")
        let slash = UInt8(ascii: "/")
        // The date's brackets: syslog's `haproxy[123]:` may come first.
        var from = 0
        while let open = line[from...].firstIndex(of: UInt8(ascii: "[")), let close = line[open...].firstIndex(of: UInt8(ascii: "]")) {
            from = close
            guard close - open > 20, line[(open + 1)..<close].contains(slash) else { continue }
            let fields = line[(close + 1)...].prefix(200).split(separator: space, maxSplits: 8, omittingEmptySubsequences: true)
            guard fields.count >= 4, fields[1].contains(slash),
                fields[2].allSatisfy({ LogPiece.isDigit($0) || $0 == slash || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }),
                fields[2].count(where: { $0 == slash }) == 4,
                fields[3].count == 3, fields[3].allSatisfy(LogPiece.isDigit)
            else { return nil }
            let status = fields[3].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            // bytes, the captured request and response cookies, then the state: `LR--`, `SD--`.
            let state = fields.count > 7 && fields[7].count == 4 ? fields[7].first : nil
            return HAProxyRequestLine(server: fields[1].startIndex..<fields[1].endIndex, status: status, endedBy: state)
        }
        return nil
    }
}
