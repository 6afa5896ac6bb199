/// Tells which lines continue the line before them instead of standing alone: a stack trace's
/// frames, indented (Python's `  File "app.py", line 3, in view`, Java's `\tat …`, Go's
/// `\t/src/app.go:12`, PHP's `  thrown in …`), and a Python traceback's own lines, its header
/// `Traceback (most recent call last):` and the exception that ends it (`KeyError: 'id'`). Such
/// a line shares the fate of the line it continues: the same cause, or unexplained with it, and
/// never a shape of its own, so a log full of tracebacks lists what raised them, not their frames.
/// So do the reports uWSGI writes after a line, from their first line to their last: the
/// backtrace after `!!! uWSGI process 1234 got Segmentation Fault !!!`, the worker's status
/// after `*** HARAKIRI ON WORKER 1 … ***`, and before it, with `harakiri-verbose`, the lines
/// that say what the worker was doing (`HARAKIRI: -- syscall> …`, `HARAKIRI: -- wchan> …`).
/// And uWSGI's request log for a request no app took (`[pid: 53|app: -1|req: -1/1] …`): uWSGI
/// writes why just before it, be it no app loaded (`--- no python application found …`) or a
/// request it refused (`Invalid (too big) CONTENT_LENGTH. skip.`, a body it could not buffer);
/// after another request's line (a request log kept apart, `--req-logger`) it stands alone.
/// And an nginx entry that quotes what a client sent, newlines and all (`broken header: "GET /
/// HTTP/1.1` over the request's lines, then `" while reading PROXY protocol, …`): the lines after
/// it continue it until its quote closes or the next entry starts.
/// Through syslog or journald, the line is read after their prefix (`LogPrefix`).
public struct LogContinuation: Sendable {
    private var hasPrevious = false
    private var previousIndented = false
    /// Whether the line before was uWSGI's request log of any request.
    private var previousWasRequestLog = false
    /// Inside a Python traceback: its frames until the first unindented line, the exception.
    private var inTraceback = false
    /// Inside a report that ends with a known line: that line, and the lines left before the
    /// report is taken as cut short (a log that ends, or was rotated, in the middle of one).
    private var reportEnd: [UInt8]?
    private var reportLinesLeft = 0
    /// Inside an nginx entry whose quote is still open, and the lines left before it is taken
    /// as a quote that never closes (another program's lines after an entry that quotes one `"`).
    private var inNginxQuote = false
    private var nginxQuoteLinesLeft = 0
    /// uWSGI's longest reports (a backtrace of a deep stack) run to a few dozen lines; an nginx
    /// entry, quote and all, ends within 2,048 bytes (NGX_MAX_ERROR_STR).
    static let maximumReportLines = 256

    private static let tracebackHeaders = [
        "Traceback (most recent call last):", "During handling of the above exception, another exception occurred:",
        "The above exception was the direct cause of the following exception:",
    ].map { Array($0.utf8) }

    /// uWSGI's reports: the first line's start, and the last line's.
    private static let reports = [
        ("*** backtrace of ", "*** end of backtrace ***"), ("HARAKIRI !!! worker ", "HARAKIRI !!! end of worker "),
    ].map { (Array($0.0.utf8), Array($0.1.utf8)) }

    /// The start of each line of harakiri-verbose's account of the stuck worker.
    private static let harakiriDetail = Array("HARAKIRI: --".utf8)

    /// What follows the worker's `[pid: 53` in uWSGI's request log of a request no app took.
    private static let noApp = Array("|app: -1|".utf8)

    public init() {}

    /// Whether `line`, read after the lines before it, continues the one before it.
    public mutating func continues(_ line: String) -> Bool {
        Array(line.utf8).withUnsafeBufferPointer { continues($0) }
    }

    /// Whether `line`, read after the lines before it, continues the one before it.
    public mutating func continues(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        continues(line, ownStart: LogPrefix.end(of: line))
    }

    /// The same, for a line whose own text (`LogPrefix.end`) starts at `ownStart`.
    mutating func continues(_ line: UnsafeBufferPointer<UInt8>, ownStart: Int) -> Bool {
        let own = UnsafeBufferPointer(rebasing: line[ownStart...])
        let indented = own.first == UInt8(ascii: " ") || own.first == UInt8(ascii: "\t")
        let requestLog = Self.requestLogApp(own)
        defer {
            previousIndented = indented
            previousWasRequestLog = requestLog != nil
            hasPrevious = true
        }
        let startsEntry = Self.startsNginxEntry(own)
        if inNginxQuote, !startsEntry, nginxQuoteLinesLeft > 0 {
            nginxQuoteLinesLeft -= 1
            if Self.hasOddQuotes(own) { inNginxQuote = false }
            return true
        }
        inNginxQuote = startsEntry && Self.hasOddQuotes(own)
        nginxQuoteLinesLeft = Self.maximumReportLines
        if indented { return hasPrevious }
        if let end = reportEnd, reportLinesLeft > 0 {
            reportLinesLeft -= 1
            if own.starts(with: end) { reportEnd = nil }
            return true
        }
        reportEnd = nil
        if hasPrevious, let report = Self.reports.first(where: { own.starts(with: $0.0) }) {
            reportEnd = report.1
            reportLinesLeft = Self.maximumReportLines
            return true
        }
        if hasPrevious, own.starts(with: Self.harakiriDetail) { return true }
        if hasPrevious, !previousWasRequestLog, let app = requestLog, own[app...].starts(with: Self.noApp) { return true }
        if Self.tracebackHeaders.contains(where: { own.starts(with: $0) }) {
            inTraceback = true
            return hasPrevious
        }
        // The exception's line closes the traceback.
        let closes = inTraceback && previousIndented
        inTraceback = false
        return closes
    }

    /// Whether the line starts as nginx's error log entries do: `2026/12/07 17:07:05 [`.
    private static func startsNginxEntry(_ own: UnsafeBufferPointer<UInt8>) -> Bool {
        own.count >= nginxEntryStart.count
            && zip(own, nginxEntryStart).allSatisfy { byte, expected in expected == UInt8(ascii: "0") ? LogPiece.isDigit(byte) : byte == expected }
    }

    /// Whether the line holds an odd number of `"`: a quote opened and not closed, or closed.
    private static func hasOddQuotes(_ own: UnsafeBufferPointer<UInt8>) -> Bool {
        own.reduce(0) { $1 == UInt8(ascii: "\"") ? $0 + 1 : $0 } % 2 == 1
    }

    /// The start of an nginx error log entry, a `0` for each digit.
    private static let nginxEntryStart = Array("0000/00/00 00:00:00 [".utf8)

    /// Where `|app: ` starts in uWSGI's request log (`[pid: 53|app: -1|…`), or nil for another line.
    private static func requestLogApp(_ own: UnsafeBufferPointer<UInt8>) -> Int? {
        guard own.starts(with: "[pid: ".utf8) else { return nil }
        var at = 6
        while at < own.count, LogPiece.isDigit(own[at]) { at += 1 }
        return at > 6 && UnsafeBufferPointer(rebasing: own[at...]).starts(with: "|app: ".utf8) ? at : nil
    }
}
