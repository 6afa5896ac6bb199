/// nginx words a failed step as `<call>() failed (<errno>: <text>) while <phase>`: the call
/// (`connect()`, `recv()`, `upstream timed out`, `kevent() reported that connect() failed`)
/// changes with the event method and the moment the kernel reports it, while the errno and the
/// phase say what happened. So each article pattern of that shape also stands for its errno and
/// phase alone, `(110: Connection timed out) while connecting to upstream`, and a line with an
/// unseen call and a known errno in a known phase is explained the same way, when no pattern
/// written for a line matches it (`LogMatcher` asks these last).
/// Where articles disagree on a pair, or one already names it, nothing is added; nor from a
/// pattern whose call names a unix socket (`connect() to unix:… failed (13: Permission denied)`):
/// the same errno from a TCP address has another cause (SELinux, a firewall).
enum LogErrnoPhase {
    /// `causes`, each with only the errno-and-phase patterns its patterns stand for.
    static func pairs(of causes: [LogCause]) -> [LogCause] {
        var written: Set<String> = []
        for cause in causes { for pattern in cause.patterns { written.insert(pattern.text) } }
        var owners: [String: Set<Int>] = [:]
        var order: [String] = []
        for (index, cause) in causes.enumerated() {
            for pattern in cause.patterns {
                guard let pair = pair(in: pattern.text), !written.contains(pair) else { continue }
                if owners[pair] == nil { order.append(pair) }
                owners[pair, default: []].insert(index)
            }
        }
        var result = causes.map { cause in
            var cause = cause
            cause.patterns = []
            return cause
        }
        for pair in order {
            guard let owner = owners[pair], owner.count == 1, let index = owner.first else { continue }
            result[index].patterns.append(LogPattern(pair))
        }
        return result
    }

    /// `(<errno>: <text>) while <phase>` from the end of `pattern`, when something comes
    /// before it; the number as written (between backticks, in an unknown errno's wording).
    static func pair(in pattern: String) -> String? {
        guard !pattern.contains("unix:") else { return nil }
        let bytes = Array(pattern.utf8)
        let marker = Array(") while ".utf8)
        guard let close = bytes.indices.last(where: { bytes[$0...].starts(with: marker) }),
            let open = bytes[..<close].lastIndex(of: UInt8(ascii: "(")), open > 0
        else { return nil }
        var at = open + 1
        if at < close, bytes[at] == UInt8(ascii: "`") { at += 1 }
        let digits = bytes[at..<close].prefix(while: LogPiece.isDigit).count
        guard digits > 0 else { return nil }
        at += digits
        if at < close, bytes[at] == UInt8(ascii: "`") { at += 1 }
        guard bytes[at..<close].starts(with: Array(": ".utf8)), close - at > 2, close + marker.count < bytes.count else { return nil }
        return String(decoding: bytes[open...], as: UTF8.self)
    }
}
