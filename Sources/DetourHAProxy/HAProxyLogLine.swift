/// A `log` line's arguments as HAProxy 2.6 reads them (parse_logsrv() in src/log.c): the
/// target, then optionally `len N`, `format F` and `sample R:S` in that order, the facility, and
/// optionally a level and a minimum level; HAProxy's words for what it refuses. The target's
/// address, which HAProxy reads after them, is HAProxyAddressLines'.
enum HAProxyLogLine {
    /// log_facilities[], log_levels[] and the names of log_formats[] in src/log.c.
    static let facilities: Set<String> = [
        "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "auth2", "ftp", "ntp", "audit", "alert", "cron2", "local0",
        "local1", "local2", "local3", "local4", "local5", "local6", "local7",
    ]
    static let levels: Set<String> = ["emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"]
    static let formats: Set<String> = ["local", "rfc3164", "rfc5424", "priority", "short", "timed", "iso", "raw"]

    /// HAProxy's refusal of a `log` line in the global section (`inGlobal`) or a proxy, and the
    /// word it is about.
    static func refusal(of line: HAProxyLine, inGlobal: Bool) -> (word: HAProxyWord, message: String)? {
        guard line.knownKeyword == .log else { return nil }
        // HAProxy sees no argument from an empty one on (an unset variable).
        let words = Array(line.words.prefix { !$0.text.isEmpty })
        let text = { (index: Int) in index < words.count ? words[index].text : "" }
        let at = { (index: Int) in words[min(index, words.count - 1)] }
        if words.count == 2, text(1) == "global" {
            return inGlobal ? (at(1), "log : 'global' is not supported for a global syslog server") : nil
        }
        guard words.count >= 3 else { return (at(0), "log : expects <address> and <facility> \(inGlobal ? "" : "or global") as arguments") }
        var index = 2
        if text(index) == "len" {
            let length = Int(text(index + 1).prefix { $0.isASCII && $0.isNumber }) ?? 0
            guard (80...65535).contains(length) else { return (at(index + 1), "log : invalid log length '\(text(index + 1))', must be between 80 and 65535") }
            index += 2
        }
        if text(index) == "format" {
            guard formats.contains(text(index + 1)) else { return (at(index + 1), "log : unknown log format '\(text(index + 1))'") }
            index += 2
        }
        if text(index) == "sample" { index += 2 }
        guard facilities.contains(text(index)) else { return (at(index), "log : unknown log facility '\(text(index))'") }
        index += 1
        for what in ["log level", "minimum log level"] where index < words.count {
            guard levels.contains(text(index)) else { return (at(index), "log : unknown optional \(what) '\(text(index))'") }
            index += 1
        }
        if index < words.count { return (at(index), "log : cannot handle unexpected argument '\(text(index))'") }
        return nil
    }
}
