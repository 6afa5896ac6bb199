import DetourDiagnostics
import DetourProxyCore

/// 9. The location serving error pages is behind `deny all`, `auth_basic` or `auth_request`,
/// its own or inherited: visitors get 403 or 401 instead of the page. A guard on the whole
/// server that no location lifts is a finding only for the page of its own refusal
/// (`NginxServer.keepsPage`): whoever meets any other error has passed it.
struct ProtectedPageRule: NginxRule {
    static let about = NginxRules.protected

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        // Where the guard before each protected page's location is written, and the pages it keeps.
        var guarded: [ObjectIdentifier: (at: SourceLocation, uris: Set<String>)] = [:]
        for (route, stand, _) in ErrorPageChecks.protectedPages(facts.site) {
            if case .uri(let uri, let location?, _) = route.origin.target {
                guarded[ObjectIdentifier(location), default: (stand.at, [])].uris.insert(uri)
            }
        }
        // One finding per location serving pages, with every page its guard keeps.
        return eachServingLocation(facts) { location, served in
            guard let (at, kept) = guarded[ObjectIdentifier(location)], let guardDirective = location.scope.protections.first(where: { $0.location == at })
            else { return [] }
            let uris = served.filter(kept.contains)
            let status = guardDirective.kind == .deny ? "403" : "401"
            return [
                Self.finding(
                    "\(location.description) serves error pages (\(uris.joined(separator: ", "))) behind \(guardDirective.name): visitors get \(status) instead of the page",
                    at: location.directive.location,
                    notes: [
                        .init("protected here", at: guardDirective.location),
                        Self.fix(guardDirective.kind == .deny ? "add 'allow all;' to this location" : "add '\(guardDirective.name) off;' to this location"),
                    ])
            ]
        }
    }
}
