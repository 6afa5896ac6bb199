/// The status a visitor got, where the line says it: HAProxy's request log (the field after the
/// timers), the access logs in the Common or Combined Log Format (`CommonLogLine`) and Caddy's
/// JSON lines (`"status":502`). nginx's and Apache's error logs do not say it.
enum LogStatus {
    private static let jsonStatus = Array(#""status":"#.utf8)

    /// The status in `line`, of `format` (`LogFormat`), if it says one.
    static func of(_ line: UnsafeBufferPointer<UInt8>, format: LogFormat) -> Int? {
        switch format {
        case .nginx, .apache: return nil
        case .other: return HAProxyRequestLine.of(line)?.status ?? CommonLogLine.status(line)
        case .json:
            guard let start = LogSearch.end(of: jsonStatus, in: line), start + 3 <= line.count, line[start..<(start + 3)].allSatisfy(LogPiece.isDigit),
                start + 3 == line.count || !LogPiece.isDigit(line[start + 3])
            else { return nil }
            return line[start..<(start + 3)].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
    }
}
