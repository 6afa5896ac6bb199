import Foundation

/// When a log line says it was written, as the line writes it: nginx's `2026/11/22 23:07:10`,
/// Apache's `[Sun Nov 22 23:07:10.123456 2026]`, PHP-FPM's `[22-Nov-2026 23:07:10]`, syslog's
/// `Nov 22 23:07:10`, uWSGI's `Sun Nov 22 23:07:10 2026`, an ISO 8601 stamp, or Caddy's `"ts":1795389093.54` (shown in UTC).
/// Found as a span of the line, so reading a line makes no string; `text` makes one.
struct LogTime {
    /// The bytes that say the time.
    var range: Range<Int>
    /// Caddy's seconds since 1970, not a written time.
    var isEpoch: Bool
    /// Bytes of the line's start the time takes, brackets included (0 for a time inside it).
    var prefix: Int

    static func of(_ line: UnsafeBufferPointer<UInt8>) -> LogTime? {
        guard let first = line.first else { return nil }
        if first == UInt8(ascii: "{") { return caddy(line) }
        // Not uWSGI's request log, `[pid: 3312|app: 0|req: 1/1]`.
        if first == UInt8(ascii: "["), let close = line.prefix(64).firstIndex(of: UInt8(ascii: "]")), close > 8,
            line[1..<close].contains(UInt8(ascii: ":")), !line[1..<close].contains(UInt8(ascii: "|")), LogPiece.isDigit(line[close - 1])
        {
            return LogTime(range: 1..<close, isEpoch: false, prefix: close + 1)
        }
        // 2026/11/22 23:07:10 and 2026-11-22T23:07:10…
        if line.count >= 19, LogPiece.isDigit(first), line[4] == UInt8(ascii: "/") || line[4] == UInt8(ascii: "-"), line[13] == UInt8(ascii: ":") {
            var end = 19
            // Up to a space, or a tab (Caddy's console format and log stores put one there).
            while end < line.count, line[end] != UInt8(ascii: " "), line[end] != UInt8(ascii: "\t") { end += 1 }
            return LogTime(range: 0..<end, isEpoch: false, prefix: end)
        }
        // Sun Nov 22 23:07:10 2026 (C's ctime, the day padded with a space)
        if line.count >= 24, LogPiece.isLetter(first), line[3] == UInt8(ascii: " "), line[7] == UInt8(ascii: " "), line[13] == UInt8(ascii: ":"),
            line[16] == UInt8(ascii: ":"), line[19] == UInt8(ascii: " "), line[20..<24].allSatisfy(LogPiece.isDigit)
        {
            return LogTime(range: 0..<24, isEpoch: false, prefix: 24)
        }
        // Nov 22 23:07:10
        if line.count >= 15, LogPiece.isLetter(first), line[3] == UInt8(ascii: " "), line[9] == UInt8(ascii: ":"), line[12] == UInt8(ascii: ":") {
            return LogTime(range: 0..<15, isEpoch: false, prefix: 15)
        }
        return nil
    }

    /// The time as people read it, from the bytes `range` names.
    static func text(_ bytes: some Collection<UInt8>, isEpoch: Bool) -> String {
        let written = String(decoding: bytes, as: UTF8.self)
        guard isEpoch, let seconds = Double(written) else { return written }
        return Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    }

    private static let key = Array(#""ts":"#.utf8)

    private static func caddy(_ line: UnsafeBufferPointer<UInt8>) -> LogTime? {
        guard
            let start = line.prefix(256).indices.first(where: { at in
                at + key.count <= line.count && zip(line[at..<at + key.count], key).allSatisfy { $0 == $1 }
            })
        else { return nil }
        var end = start + key.count
        while end < line.count, LogPiece.isDigit(line[end]) || line[end] == UInt8(ascii: ".") { end += 1 }
        guard end > start + key.count else { return nil }
        return LogTime(range: (start + key.count)..<end, isEpoch: true, prefix: 0)
    }
}
