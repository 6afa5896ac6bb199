import DetourDiagnostics

/// One site (an nginx `server`, a Caddy site block) and, per code, what answers it: the
/// table `detour check` ends with.
public struct SiteCoverage: Sendable {
    /// `example.com`, or what else names the site.
    public var name: String
    /// Where the site is defined.
    public var location: SourceLocation
    /// Code → the file (as checked here) or route that answers it; nil when none does.
    public var answers: [(code: Int, answer: String?)]

    public init(name: String, location: SourceLocation, answers: [(code: Int, answer: String?)]) {
        self.name = name
        self.location = location
        self.answers = answers
    }
}
