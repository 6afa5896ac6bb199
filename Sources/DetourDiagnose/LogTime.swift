import Foundation

/// When a log line says it was written, as the line writes it: nginx's `2026/11/22 23:07:10`,
/// Apache's `[Sun Nov 22 23:07:10.123456 2026]`, PHP-FPM's `[22-Nov-2026 23:07:10]`, syslog's
/// `Nov 22 23:07:10`, an ISO 8601 stamp, or Caddy's `"ts":1795389093.54` (shown in UTC).
enum LogTime {
    /// The time and how many bytes of the line's start it takes (0 for a time inside it).
    static func of(_ line: UnsafeBufferPointer<UInt8>) -> (text: String, prefix: Int)? {
        guard let first = line.first else { return nil }
        if first == UInt8(ascii: "{") { return caddy(line).map { ($0, 0) } }
        if first == UInt8(ascii: "["), let close = line.prefix(64).firstIndex(of: UInt8(ascii: "]")), close > 8,
           line[1..<close].contains(UInt8(ascii: ":")), LogPiece.isDigit(line[close - 1]) {
            return (String(decoding: line[1..<close], as: UTF8.self), close + 1)
        }
        // 2026/11/22 23:07:10 and 2026-11-22T23:07:10…
        if line.count >= 19, LogPiece.isDigit(first), line[4] == UInt8(ascii: "/") || line[4] == UInt8(ascii: "-"), line[13] == UInt8(ascii: ":") {
            var end = 19
            while end < line.count, line[end] != UInt8(ascii: " ") { end += 1 }
            return (String(decoding: line[0..<end], as: UTF8.self), end)
        }
        // Nov 22 23:07:10
        if line.count >= 15, LogPiece.isLetter(first), line[3] == UInt8(ascii: " "), line[9] == UInt8(ascii: ":"), line[12] == UInt8(ascii: ":") {
            return (String(decoding: line[0..<15], as: UTF8.self), 15)
        }
        return nil
    }

    private static let key = Array(#""ts":"#.utf8)

    private static func caddy(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        guard let start = line.prefix(256).indices.first(where: { at in
            at + key.count <= line.count && zip(line[at..<at + key.count], key).allSatisfy { $0 == $1 }
        }) else { return nil }
        var end = start + key.count
        while end < line.count, LogPiece.isDigit(line[end]) || line[end] == UInt8(ascii: ".") { end += 1 }
        guard let seconds = Double(String(decoding: line[(start + key.count)..<end], as: UTF8.self)) else { return nil }
        return Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    }
}
