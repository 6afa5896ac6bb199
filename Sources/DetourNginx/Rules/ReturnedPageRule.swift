import DetourDiagnostics
import DetourProxyCore

/// The page's URI falls into a location that answers with `return`: nginx's internal redirect
/// to the page runs that `return`, and visitors get its text with the error status (or its
/// redirect) instead of the page. Often a catch-all `location / { return … }` with no location
/// of the pages' own.
struct ReturnedPageRule: NginxRule {
    static let about = NginxRules.returned

    /// An `internal` location, or one for exactly the page's URI, was written to answer the
    /// page: its `return` is the page (`location = /errors/404.json { return 404 "{}"; }`).
    static func isWrittenForPages(_ location: NginxLocation, _ uri: String) -> Bool {
        location.isInternal || (location.match == .exact && location.pattern == uri)
    }

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        return facts.site.routes.compactMap { route in
            guard case .uri(let uri, let location?, _) = route.origin.target, location.upstreamPass == nil, let answer = location.returnDirective,
                route.codes.contains(where: { $0 >= 400 }), !Self.isWrittenForPages(location, uri)
            else { return nil }
            return Self.finding(
                "error page '\(uri)' falls into \(location.description), whose 'return' answers it: visitors get that answer instead of the page",
                at: route.origin.page.targetLocation,
                notes: [
                    .init("this return answers the page's request", at: answer.location),
                    Self.fix("serve the pages from their own 'location ^~ \(ProxiedPageRule.folder(of: uri)) { internal; root …; }'"),
                ])
        }
    }
}
