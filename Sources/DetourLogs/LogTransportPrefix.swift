/// What the tools that carry a log write before each line, in front of the server's own: Docker
/// Compose's service column (`app-1  | `), the time `docker logs -t` and `kubectl logs
/// --timestamps` put first (`2026-11-25T06:00:00.123456789Z `), a log store's export (a time and
/// a tab) and `kubectl logs --prefix`'s `[pod/app-7d9/nginx] `. They stack, and stand inside a
/// syslog line too (`Apr 03 23:40:56 web sh[229]: caddy  | {…}`). A line read from behind them is
/// the server's own, so its time, level and request are read as the server wrote them.
enum LogTransportPrefix {
    /// Where the server's own line starts behind every such prefix, 0 when there is none.
    static func end(of line: UnsafeBufferPointer<UInt8>) -> Int {
        var at = 0
        // At most a few layers: each must leave a line behind.
        for _ in 0..<4 {
            let rest = UnsafeBufferPointer(rebasing: line[at...])
            let layer = composeService(rest) ?? carriedTime(rest) ?? podPrefix(rest) ?? syslogCarrying(rest)
            guard let layer, layer > 0, layer < rest.count else { break }
            at += layer
        }
        return at
    }

    /// `app-1  | ` or `haproxy_1_3e1d962649bf | `: a name, spaces, a bar and a space.
    private static func composeService(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = line.first, LogPiece.isLetter(first) || LogPiece.isDigit(first) else { return nil }
        var at = 1
        while at < min(line.count, 80), isNameByte(line[at]) { at += 1 }
        let nameEnd = at
        while at < line.count, line[at] == UInt8(ascii: " ") { at += 1 }
        guard at > nameEnd, at + 1 < line.count, line[at] == UInt8(ascii: "|"), line[at + 1] == UInt8(ascii: " ") else { return nil }
        return at + 2
    }

    /// A time the carrier wrote (`2020-04-26T04:21:34.717765840Z `, `2024-03-26 14:03:21.874\t`,
    /// Go's `2018-12-11 16:16:43.296419538 +0100 CET`, then perhaps the carrier's name for the
    /// source, `[web-1] `), followed by a line with a time of its own or a JSON line: then the
    /// server's time is the one that counts. A time followed by the message itself is the
    /// server's own.
    private static func carriedTime(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard line.count > 20, LogPiece.isDigit(line[0]), line[4] == UInt8(ascii: "-"), line[7] == UInt8(ascii: "-"),
            line[10] == UInt8(ascii: "T") || line[10] == UInt8(ascii: " "), line[13] == UInt8(ascii: ":")
        else { return nil }
        var at = 19
        while at < min(line.count, 40), line[at] != UInt8(ascii: "\t"), line[at] != UInt8(ascii: " ") { at += 1 }
        guard at < line.count, line[at] == UInt8(ascii: "\t") || line[at] == UInt8(ascii: " ") else { return nil }
        if line[at] == UInt8(ascii: "\t") { return at + 1 }
        var end = at + 1
        for _ in 0..<2 { end = zoneWord(line, from: end) ?? end }
        end = sourceTag(line, from: end) ?? end
        let rest = UnsafeBufferPointer(rebasing: line[end...])
        guard let first = rest.first else { return nil }
        if first == UInt8(ascii: "{") { return end }
        if let time = LogTime.of(rest), !time.isEpoch, time.prefix > 0 { return end }
        return nil
    }

    /// A zone after a time and its space (`+0100 `, `CET `, `UTC `): where the next word starts.
    private static func zoneWord(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var at = start
        while at < min(line.count, start + 6), line[at] != UInt8(ascii: " ") { at += 1 }
        guard at > start, at < line.count, line[at] == UInt8(ascii: " ") else { return nil }
        let word = line[start..<at]
        let offset = (word.first == UInt8(ascii: "+") || word.first == UInt8(ascii: "-")) && word.count == 5 && word.dropFirst().allSatisfy(LogPiece.isDigit)
        let name = word.count >= 2 && word.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
        return offset || name ? at + 1 : nil
    }

    /// A carrier's name for the source (`[web-1] `): where the line behind it starts.
    private static func sourceTag(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < line.count, line[start] == UInt8(ascii: "[") else { return nil }
        var at = start + 1
        while at < min(line.count, start + 64), isNameByte(line[at]) { at += 1 }
        guard at > start + 1, at + 1 < line.count, line[at] == UInt8(ascii: "]"), line[at + 1] == UInt8(ascii: " ") else { return nil }
        return at + 2
    }

    /// `[pod/app-7d9/nginx] `.
    private static func podPrefix(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard line.starts(with: "[pod/".utf8), let close = line.prefix(256).firstIndex(of: UInt8(ascii: "]")), close + 1 < line.count,
            line[close + 1] == UInt8(ascii: " ")
        else { return nil }
        return close + 2
    }

    /// A syslog or journald line whose program wrote one of the prefixes above: `docker compose
    /// up` run by a service manager. A syslog line carrying the server's own line is left to
    /// `LogPrefix`.
    private static func syslogCarrying(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        let own = LogPrefix.end(of: line)
        guard own > 0, own < line.count else { return nil }
        let rest = UnsafeBufferPointer(rebasing: line[own...])
        guard composeService(rest) != nil || carriedTime(rest) != nil || podPrefix(rest) != nil else { return nil }
        return own
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        LogPiece.isLetter(byte) || LogPiece.isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
