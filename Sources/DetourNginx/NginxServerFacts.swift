import DetourProxyCore

/// One server's error pages with where each leads, the static locations serving them, and
/// the server in neutral terms. Worked out once per server before its rules run; the rules
/// only read them.
struct NginxServerFacts: Sendable {
    var servingLocations: [(location: NginxLocation, uris: [String])]
    /// Each page as a route, and which file answers each code: for the shared checks and
    /// the coverage table.
    var site: ErrorPageSite<NginxPageOrigin>

    /// Every error page in effect with where it leads.
    var pages: LazyMapSequence<[ErrorPageRoute<NginxPageOrigin>], (page: NginxErrorPage, target: NginxPageTarget)> {
        site.routes.lazy.map { ($0.origin.page, $0.origin.target) }
    }

    /// The static locations that serve this server's pages.
    var pageLocations: [NginxLocation] { servingLocations.map(\.location) }

}
