/// An article as `detour diagnose` uses it: what it is called, where it is published, the
/// statuses visitors see with it, the log lines it explains and the command that confirms it.
public struct LogCause: Sendable {
    public var slug: String
    public var title: String
    public var url: String
    public var statuses: [Int]
    public var patterns: [LogPattern]
    public var confirmation: LogConfirmation

    public init(slug: String, title: String, url: String, statuses: [Int], patterns: [String], confirmation: LogConfirmation = LogConfirmation()) {
        self.slug = slug
        self.title = title
        self.url = url
        self.statuses = statuses
        self.confirmation = confirmation
        // A server built on musl (Alpine's nginx) words some errno texts its own way; a
        // consequence stands for the lines that lead to it.
        self.patterns = patterns.flatMap(LogConsequence.withCauses).flatMap(ErrnoWording.variants).map(LogPattern.init)
    }
}
