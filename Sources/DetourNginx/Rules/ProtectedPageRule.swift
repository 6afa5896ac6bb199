import DetourDiagnostics

/// 9. The location serving error pages is behind `deny all`, `auth_basic` or `auth_request`,
/// its own or inherited: visitors get 403 or 401 instead of the page. A guard on the whole
/// server that no location lifts is no finding: whoever can meet an error has passed it, and
/// their credentials carry over nginx's internal redirect to the page.
struct ProtectedPageRule: NginxRule {
    static let about = RuleDescription(
        "nginx.error-page-protected", .error,
        summary: "the pages sit behind deny all, auth_basic or auth_request",
        consequence: "a 403/401 from `deny all`, `auth_basic` or `auth_request` on the pages (a password on the whole server that no location lifts is fine: whoever meets an error has given it)"
    )

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        eachServingLocation(facts) { location, uris in
            guard let guardDirective = location.scope.protections.first(where: { !Self.guardsEveryone($0, server) }) else { return [] }
            let status = guardDirective.kind == .deny ? "403" : "401"
            return [.error(Self.id, "\(location.description) serves error pages (\(uris.joined(separator: ", "))) behind \(guardDirective.name): visitors get \(status) instead of the page", at: location.directive.location, notes: [
                .init("protected here", at: guardDirective.location),
                Self.fix(guardDirective.kind == .deny ? "add 'allow all;' to this location" : "add '\(guardDirective.name) off;' to this location"),
            ])]
        }
    }

    /// Whether `guardDirective` stands before every request the server takes: it is in effect
    /// for the server itself and in every location a request can select.
    private static func guardsEveryone(_ guardDirective: NginxDirective, _ server: NginxServer) -> Bool {
        guard server.scope.protections.contains(guardDirective) else { return false }
        return server.allLocations.allSatisfy { location in
            location.isInternal || location.match == .named || location.scope.protections.contains(guardDirective)
        }
    }
}
