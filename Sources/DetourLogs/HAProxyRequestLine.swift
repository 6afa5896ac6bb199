/// The fields of HAProxy's request log (`option httplog`) that `detour diagnose` reads: `client:port
/// [date] frontend backend/server Tq/Tw/Tc/Tr/Ta status bytes …`, after a syslog prefix or none.
struct HAProxyRequestLine {
    /// Where `backend/server` is written (`app/<NOSRV>` when no server was chosen).
    var server: Range<Int>
    /// The status the visitor got.
    var status: Int

    static func of(_ line: UnsafeBufferPointer<UInt8>) -> HAProxyRequestLine? {
        let space = UInt8(ascii: " ")
        // The date's brackets: syslog's `haproxy[123]:` may come first.
        var from = 0
        while let open = line[from...].firstIndex(of: UInt8(ascii: "[")), let close = line[open...].firstIndex(of: UInt8(ascii: "]")) {
            from = close
            guard close - open > 20, line[(open + 1)..<close].contains(UInt8(ascii: "/")) else { continue }
            let fields = line[(close + 1)...].split(separator: space, maxSplits: 4, omittingEmptySubsequences: true)
            guard fields.count >= 4, fields[1].contains(UInt8(ascii: "/")),
                fields[2].allSatisfy({ LogPiece.isDigit($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }),
                fields[3].count == 3, fields[3].allSatisfy(LogPiece.isDigit)
            else { return nil }
            let status = fields[3].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            return HAProxyRequestLine(server: fields[1].startIndex..<fields[1].endIndex, status: status)
        }
        return nil
    }
}
