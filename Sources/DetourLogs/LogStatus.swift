/// The status a visitor got, where the line says it: HAProxy's request log (the field after the
/// timers) and Caddy's JSON error lines (`"status":502`). nginx's and Apache's error logs do not
/// say it; their access logs do, which `detour diagnose` does not read. Through syslog or
/// journald, Caddy's JSON starts after their prefix (`LogPrefix`).
enum LogStatus {
    private static let jsonStatus = Array(#""status":"#.utf8)

    static func of(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        let own = LogPrefix.end(of: line)
        if own < line.count, line[own] == UInt8(ascii: "{") {
            guard let start = firstEnd(of: jsonStatus, in: line), start + 3 <= line.count, line[start..<(start + 3)].allSatisfy(LogPiece.isDigit),
                start + 3 == line.count || !LogPiece.isDigit(line[start + 3])
            else { return nil }
            return line[start..<(start + 3)].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        return HAProxyRequestLine.of(line)?.status
    }

    /// Where the first `text` in the line ends.
    private static func firstEnd(of text: [UInt8], in line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard line.count >= text.count else { return nil }
        var at = 0
        while at + text.count <= line.count {
            guard let found = line[at...].firstIndex(of: text[0]) else { return nil }
            if found + text.count <= line.count, line[found..<(found + text.count)].elementsEqual(text) { return found + text.count }
            at = found + 1
        }
        return nil
    }
}
