/// Which server wrote a line, as far as its first bytes tell: each writes its upstream and its
/// status in its own words, so only those are looked for. A line of another shape is searched
/// for every server's words.
enum LogFormat: CaseIterable {
    /// `2026/11/20 10:00:01 [error] …`
    case nginx
    /// `[Fri Nov 20 10:00:16.123456 2026] [proxy:error] …`
    case apache
    /// `{"level":"error",…}`
    case json
    case other

    /// Its place in `allCases`, to count lines by format in an array.
    var index: Int {
        switch self {
        case .nginx: 0
        case .apache: 1
        case .json: 2
        case .other: 3
        }
    }

    /// The format of `whole`, whose own text (behind a syslog or journald prefix, `LogPrefix.end`)
    /// starts at `ownStart`.
    static func of(_ whole: UnsafeBufferPointer<UInt8>, ownStart: Int) -> LogFormat {
        let line = UnsafeBufferPointer(rebasing: whole[ownStart...])
        guard let first = line.first else { return .other }
        if first == UInt8(ascii: "{") { return .json }
        // `[Fri ` opens Apache's lines; HAProxy's raw `[WARNING]` and PHP-FPM's `[20-Nov-2026`
        // are other shapes.
        if first == UInt8(ascii: "["), line.count > 5, line[1...3].allSatisfy(LogPiece.isLetter), line[4] == UInt8(ascii: " ") { return .apache }
        if line.count > 10, LogPiece.isDigit(first), line[4] == UInt8(ascii: "/"), line[7] == UInt8(ascii: "/") { return .nginx }
        return .other
    }
}
