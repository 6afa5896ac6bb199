/// The prefix syslog and journald write before a program's own line: `Nov 25 06:00:00 web1
/// gunicorn[812]: ` (syslog, and `journalctl`'s default output) or `2026-11-25T06:00:00+0000 web1
/// caddy[640]: ` (`journalctl -o short-iso`), and the date uWSGI writes before some of its lines
/// (`Sun Nov 22 23:07:10 2026 - `). What the program wrote starts after it: a Caddy JSON line, a
/// traceback's indented frame. nginx's own `2026/11/25 06:00:00 [error] …` is no prefix.
enum LogPrefix {
    /// Where the program's own text starts: after the prefix, or 0 when there is none.
    static func end(of line: UnsafeBufferPointer<UInt8>) -> Int {
        end(of: line, time: LogTime.of(line))
    }

    /// The same, for a line whose time (`LogTime.of`) was read already.
    static func end(of line: UnsafeBufferPointer<UInt8>, time: LogTime?) -> Int {
        let space = UInt8(ascii: " ")
        guard let first = line.first, LogPiece.isLetter(first) || LogPiece.isDigit(first), let time, !time.isEpoch, time.prefix > 0 else { return 0 }
        // One space, the host, one space, then the tag (`gunicorn[812]:`), one space.
        var at = time.prefix
        guard at < line.count, line[at] == space else { return 0 }
        if at + 3 <= line.count, line[at + 1] == UInt8(ascii: "-"), line[at + 2] == space { return at + 3 }
        at += 1
        let host = at
        while at < line.count, line[at] != space, at - host < 255 { at += 1 }
        guard at > host, line[host] != UInt8(ascii: "["), at < line.count else { return 0 }
        at += 1
        let tag = at
        while at < line.count, line[at] != space, at - tag < 255 { at += 1 }
        guard at - tag >= 2, line[at - 1] == UInt8(ascii: ":"), line[tag] != UInt8(ascii: "["), at < line.count else { return 0 }
        return at + 1
    }
}
