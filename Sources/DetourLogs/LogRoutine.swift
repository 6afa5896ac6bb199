/// Lines a server writes as it starts, stops or reads its configuration, and its notices about
/// its environment (its libraries, its modules, its host name): no request failed with them.
/// When no article explains such a line, `detour diagnose` counts it as routine, not among the
/// unexplained lines whose shapes ask for an article. Each server's grammar says which lines are
/// so, by their level and by where they were written, never by their wording:
/// - nginx: warn or below that names no connection (`*56`: written outside any request), and
///   what it prints before its log is open (`nginx: [warn] …`);
/// - Apache: warn or below that names no client (`[client …]`), and a line that starts with
///   its AH number (`AH00558: …`), written before its log is open;
/// - HAProxy: `[NOTICE]`, `[WARNING]` while it reads its configuration (`: config :`), a
///   server's health check passing (`Server app/app1 is UP`, and with `option log-health-checks`
///   `Health check for server app/app1 succeeded`), and what it logged at the
///   notice level up to 2.2 (`Proxy web started.`) and its warnings as it applies a saved server
///   state at start (`Can't open server state file …`: `HAProxyNoticeLines`, from its source by
///   `scripts/server-messages/haproxy-notices.py`);
/// - Caddy: warn or below from a logger that serves no request (not `http.log.…` nor
///   `http.handlers.…`), and debug from any logger but `http.log.error` (a failed request has
///   that logger's line, at debug where `handle_errors` answers it), in JSON or in Caddy's
///   console format (`2023/09/27 05:38:20.111	DEBUG	http.handlers.reverse_proxy	selected upstream`);
/// - PHP-FPM: its master's `NOTICE:` lines (PHP's own start-up warnings come at that level);
/// - the official nginx image: what its entrypoint script prints as the container starts;
/// - Varnish: its manager's `Info:` and `Debug:` lines, and the header `varnishlog` writes above
///   each transaction's records (`*   << BeReq    >> 3`).
/// - gunicorn: `[INFO]` and `[DEBUG]`, except the two lines its master writes at that level as
///   it halts (`Reason: Worker failed to boot.`, `Unhandled exception in main loop`: read from
///   its source, `scripts/server-messages/gunicorn.py`).
/// - uWSGI, whose lines have no level: the lines its catalogue's verdicts call starting,
///   loading and spawning (`UWSGIRoutineLines`, from `scripts/server-messages/uwsgi-routine.py`),
///   and its request log's line for an answer below 500.
///
/// And every server's request (access) log line for a request answered as asked: a status below
/// 400, or 404 (a missing page: favicons, scanners), HAProxy's only when no one cut the session
/// short (its termination state starts `-`, or `L` for an answer of its own). Other 4xx lines
/// (a limit, a denial) and 5xx lines are left for articles or counted as unexplained.
public enum LogRoutine {
    /// uWSGI's routine lines, matched as articles' patterns are.
    private static let uwsgiLines = LogMatcher([LogCause(slug: "", title: "", url: "", statuses: [], patterns: UWSGIRoutineLines.patterns)])
    /// HAProxy's notices up to 2.2, which reach syslog without their level.
    private static let haproxyNotices = LogMatcher([LogCause(slug: "", title: "", url: "", statuses: [], patterns: HAProxyNoticeLines.patterns)])

    /// Whether `line`, whose own text (behind a syslog or journald prefix) starts at `ownStart`,
    /// is routine.
    static func isRoutine(_ line: UnsafeBufferPointer<UInt8>, ownStart: Int) -> Bool {
        let own = UnsafeBufferPointer(rebasing: line[ownStart...])
        guard let first = own.first else { return false }
        if first == UInt8(ascii: "{") { return caddy(own) || caddyAccess(own) }
        // Request logs start with the client, not the time.
        guard let time = LogTime.of(own) else { return answeredRequest(own) ?? untimed(own) }
        if caddyConsole(UnsafeBufferPointer(rebasing: own[time.prefix...])) { return true }
        var at = time.prefix
        while at < own.count, own[at] == UInt8(ascii: " ") { at += 1 }
        let rest = UnsafeBufferPointer(rebasing: own[at...])
        switch LogFormat.of(own, ownStart: 0) {
        case .nginx: return nginx(rest)
        case .apache: return apache(rest)
        default: return phpFPM(rest) || gunicorn(rest) || uwsgi(rest)
        }
    }

    /// The same for a whole line as a string, syslog or journald prefix and all.
    public static func isRoutine(_ line: String) -> Bool {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            let whole = UnsafeBufferPointer(buffer)
            let line = UnsafeBufferPointer(rebasing: whole[LogTransportPrefix.end(of: whole)...])
            return isRoutine(line, ownStart: LogPrefix.end(of: line))
        }
    }

    /// Levels below warn, as nginx, Apache and Caddy write them (Apache's trace1 to trace8 too).
    private static func isQuiet(_ level: some Collection<UInt8>) -> Bool {
        ["notice", "info", "debug"].contains { level.elementsEqual($0.utf8) } || level.starts(with: "trace".utf8)
    }

    private static func isWarnOrQuieter(_ level: some Collection<UInt8>) -> Bool {
        level.elementsEqual("warn".utf8) || isQuiet(level)
    }

    /// Whether a request log's line says its request was answered as asked (nil: the line is no
    /// request log's).
    private static func answeredRequest(_ own: UnsafeBufferPointer<UInt8>) -> Bool? {
        if let request = HAProxyRequestLine.of(own) {
            return isAnswered(request.status) && (request.endedBy == UInt8(ascii: "-") || request.endedBy == UInt8(ascii: "L"))
        }
        return CommonLogLine.status(own).map(isAnswered)
    }

    private static func isAnswered(_ status: Int) -> Bool { status < 400 || status == 404 }

    private static let accessLogger = Array(#""logger":"http.log.access"#.utf8)

    /// Caddy's access log: `{"level":"info",…,"logger":"http.log.access.log0","msg":"handled request",…,"status":200}`.
    private static func caddyAccess(_ own: UnsafeBufferPointer<UInt8>) -> Bool {
        guard LogSearch.end(of: accessLogger, in: UnsafeBufferPointer(rebasing: own.prefix(200))) != nil,
            let status = LogStatus.of(own, format: .json)
        else { return false }
        return isAnswered(status)
    }

    /// `[warn] 1234#1234: could not build optimal …`, not `[warn] 1234#1234: *56 …`.
    private static func nginx(_ rest: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let level = bracketed(rest, at: 0), isWarnOrQuieter(rest[level]) else { return false }
        var at = level.upperBound + 1
        while at < rest.count, rest[at] == UInt8(ascii: " ") { at += 1 }
        while at < rest.count, LogPiece.isDigit(rest[at]) || rest[at] == UInt8(ascii: "#") { at += 1 }
        guard at + 1 < rest.count, rest[at] == UInt8(ascii: ":") else { return false }
        return !(at + 2 < rest.count && rest[at + 2] == UInt8(ascii: "*"))
    }

    /// `[ssl:warn] [pid 1234:tid 1234] AH01882: Init: …`, with no `[client …]`.
    private static func apache(_ rest: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let inside = bracketed(rest, at: 0), let colon = rest[inside].lastIndex(of: UInt8(ascii: ":")),
            isWarnOrQuieter(rest[(colon + 1)..<inside.upperBound])
        else { return false }
        return LogSearch.end(of: Array(" [client ".utf8), in: UnsafeBufferPointer(rebasing: rest.prefix(300))) == nil
    }

    /// `NOTICE: fpm is running, pid 22939`.
    private static func phpFPM(_ rest: UnsafeBufferPointer<UInt8>) -> Bool {
        rest.starts(with: "NOTICE: ".utf8) || rest.starts(with: "DEBUG: ".utf8)
    }

    /// `[812] [INFO] Booting worker with pid: 813`, not `[812] [INFO] Reason: Worker failed to boot.`
    private static func gunicorn(_ rest: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let pid = bracketed(rest, at: 0), rest[pid].allSatisfy(LogPiece.isDigit), pid.upperBound + 2 < rest.count,
            let level = bracketed(rest, at: pid.upperBound + 2), rest[level].elementsEqual("INFO".utf8) || rest[level].elementsEqual("DEBUG".utf8)
        else { return false }
        let message = rest[min(rest.count, level.upperBound + 2)...]
        return !message.starts(with: "Reason: ".utf8) && !message.starts(with: "Unhandled exception".utf8)
    }

    /// uWSGI's start-up and worker lines, and its request log's `[pid: 53|app: 0|req: 6/5] …
    /// (HTTP/1.1 200) …` for an answer below 500.
    private static func uwsgi(_ own: UnsafeBufferPointer<UInt8>) -> Bool {
        if own.starts(with: "[pid: ".utf8) {
            guard let protocolStart = LogSearch.end(of: Array(" (HTTP/".utf8), in: own) else { return false }
            var at = protocolStart
            while at < own.count, own[at] != UInt8(ascii: " ") { at += 1 }
            guard at + 4 < own.count, own[(at + 1)...(at + 3)].allSatisfy(LogPiece.isDigit) else { return false }
            return own[at + 1] < UInt8(ascii: "5")
        }
        return uwsgiLines.best(own) != nil
    }

    /// Lines with no time of their own: HAProxy's, Varnish's, PHP-FPM's children's (PHP-FPM
    /// writes the time only in its master's lines) and what nginx and Apache print before
    /// their logs are open.
    private static func untimed(_ own: UnsafeBufferPointer<UInt8>) -> Bool {
        if own.starts(with: "[NOTICE]".utf8) || own.starts(with: "Info: ".utf8) || own.starts(with: "Debug: ".utf8) { return true }
        if haproxyNotices.best(own) != nil { return true }
        if phpFPM(own) || uwsgi(own) { return true }
        if own.first == UInt8(ascii: "*"), LogSearch.end(of: Array("<< ".utf8), in: UnsafeBufferPointer(rebasing: own.prefix(8))) != nil { return true }
        if isImageEntrypoint(own) { return true }
        // `[WARNING]  (1234) : config : …`, and before 2.4 (with the day and time) `[WARNING]
        // 049/164958 (1234) : parsing [/etc/haproxy/haproxy.cfg:39] : …`.
        // And a server coming back (`Server app/app1 is UP, reason: Layer4 check passed`) or a
        // check passing (`Health check for server app/app1 succeeded`): the lines of health
        // checks that say nothing failed.
        if own.starts(with: "[WARNING]".utf8) {
            let start = UnsafeBufferPointer(rebasing: own.prefix(64))
            if LogSearch.end(of: Array(") : config : ".utf8), in: start) != nil || LogSearch.end(of: Array(") : parsing [".utf8), in: start) != nil {
                return true
            }
            if let check = LogSearch.end(of: Array(") : Health check for server ".utf8), in: start) { return afterName(own, from: check, is: " succeeded") }
            guard let server = LogSearch.end(of: Array(") : Server ".utf8), in: start) else { return false }
            return afterName(own, from: server, is: " is UP")
        }
        // The same check, as HAProxy's log target writes it (no level).
        if own.starts(with: "Health check for server ".utf8) { return afterName(own, from: 24, is: " succeeded") }
        if own.starts(with: "nginx: ".utf8) {
            let rest = UnsafeBufferPointer(rebasing: own[7...])
            return bracketed(rest, at: 0).map { isWarnOrQuieter(rest[$0]) } ?? false
        }
        // AH00558: apache2: Could not reliably determine the server's fully qualified domain name…
        return own.count > 8 && own.starts(with: "AH".utf8) && own[2..<7].allSatisfy(LogPiece.isDigit) && own[7] == UInt8(ascii: ":")
    }

    /// Whether the server name that starts at `start` is followed by `words`.
    private static func afterName(_ own: UnsafeBufferPointer<UInt8>, from start: Int, is words: String) -> Bool {
        let rest = UnsafeBufferPointer(rebasing: own[start...].prefix(300))
        guard let name = rest.firstIndex(of: UInt8(ascii: " ")) else { return false }
        return rest[name...].starts(with: words.utf8)
    }

    /// What the official nginx image's entrypoint prints as the container starts:
    /// `/docker-entrypoint.sh: Configuration complete; ready for start up` and its scripts'
    /// `10-listen-on-ipv6-by-default.sh: info: …`.
    private static func isImageEntrypoint(_ own: UnsafeBufferPointer<UInt8>) -> Bool {
        if own.starts(with: "/docker-entrypoint.sh: ".utf8) { return true }
        guard own.count > 4, own[0..<2].allSatisfy(LogPiece.isDigit), own[2] == UInt8(ascii: "-"),
            let colon = UnsafeBufferPointer(rebasing: own.prefix(80)).firstIndex(of: UInt8(ascii: ":"))
        else { return false }
        let script = own[0..<colon]
        return (script.reversed().starts(with: "hs.".utf8) || script.reversed().starts(with: "hsvne.".utf8)) && own[colon...].starts(with: ": info: ".utf8)
    }

    private static let levelKey = Array(#"{"level":""#.utf8)
    private static let loggerKey = Array(#""logger":""#.utf8)

    /// `{"level":"warn","ts":…,"logger":"admin","msg":"admin endpoint disabled"}`.
    private static func caddy(_ own: UnsafeBufferPointer<UInt8>) -> Bool {
        guard own.starts(with: levelKey), let close = own[levelKey.count...].firstIndex(of: UInt8(ascii: "\"")) else { return false }
        let head = UnsafeBufferPointer(rebasing: own.prefix(200))
        let logger = LogSearch.end(of: loggerKey, in: head).map { UnsafeBufferPointer(rebasing: head[$0...]) }
        return caddyLevel(own[levelKey.count..<close], logger: logger)
    }

    /// Caddy's console format: `\tDEBUG\thttp.handlers.reverse_proxy\tselected upstream\t{…}`
    /// after its time.
    private static func caddyConsole(_ afterTime: UnsafeBufferPointer<UInt8>) -> Bool {
        guard afterTime.first == UInt8(ascii: "\t"), let levelEnd = afterTime[1...].prefix(8).firstIndex(of: UInt8(ascii: "\t")),
            levelEnd > 1, afterTime[1..<levelEnd].allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
        else { return false }
        let level = afterTime[1..<levelEnd].map { $0 | 0x20 }
        let rest = UnsafeBufferPointer(rebasing: afterTime[(levelEnd + 1)...].prefix(200))
        guard let loggerEnd = rest.firstIndex(of: UInt8(ascii: "\t")) else { return false }
        return caddyLevel(level, logger: UnsafeBufferPointer(rebasing: rest[..<loggerEnd]))
    }

    /// Whether a Caddy line at `level` from `logger` (nil: none named) is routine.
    private static func caddyLevel(_ level: some Collection<UInt8>, logger: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let logger else { return isWarnOrQuieter(level) }
        if level.elementsEqual("debug".utf8) { return !logger.starts(with: "http.log.error".utf8) }
        return isWarnOrQuieter(level) && !logger.starts(with: "http.log.".utf8) && !logger.starts(with: "http.handlers.".utf8)
    }

    /// The span inside the brackets that open at `at`: `[warn]`'s `warn`.
    private static func bracketed(_ text: UnsafeBufferPointer<UInt8>, at: Int) -> Range<Int>? {
        guard at < text.count, text[at] == UInt8(ascii: "["),
            let close = UnsafeBufferPointer(rebasing: text[at...].prefix(64)).firstIndex(of: UInt8(ascii: "]"))
        else { return nil }
        return (at + 1)..<(at + close)
    }
}
