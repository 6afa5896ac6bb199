/// One server's error pages with where each leads, and the static locations serving them.
/// Worked out once per server before its rules run; the rules only read them.
struct NginxServerFacts: Sendable {
    var pages: [(page: NginxErrorPage, target: NginxPageTarget)]
    var servingLocations: [(location: NginxLocation, uris: [String])]

    /// The static locations that serve this server's pages.
    var pageLocations: [NginxLocation] { servingLocations.map(\.location) }

    /// Where `page` leads, when it is one of this server's pages.
    func target(of page: NginxErrorPage) -> NginxPageTarget? {
        pages.first { $0.page.directive == page.directive && $0.page.target == page.target }?.target
    }
}
