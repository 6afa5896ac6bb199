/// One site in server-neutral terms: which page file answers which status, through which
/// route. Each dialect builds it once per site; the shared checks and the coverage table read it.
public struct ErrorPageSite<Origin: Sendable>: Sendable {
    /// The site's name, where it is, and per code what answers it (nil: nothing does).
    public var coverage: SiteCoverage
    public var routes: [ErrorPageRoute<Origin>]

    public init(coverage: SiteCoverage, routes: [ErrorPageRoute<Origin>]) {
        self.coverage = coverage
        self.routes = routes
    }
}
