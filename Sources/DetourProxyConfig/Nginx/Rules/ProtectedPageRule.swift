import DetourDiagnostics

/// 9. The location serving error pages is behind `deny all`, `auth_basic` or `auth_request`,
/// its own or inherited: visitors get 403 or 401 instead of the page.
struct ProtectedPageRule: NginxRule {
    static let id = "nginx.error-page-protected"

    func check(_ context: NginxCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for server in context.servers {
            for (location, uris) in context.pageLocations(in: server) {
                guard let guardDirective = location.scope.protections.first else { continue }
                let status = guardDirective.name == "deny" ? "403" : "401"
                found.append(.error(Self.id, "location '\(location.pattern)' serves error pages (\(uris.joined(separator: ", "))) behind \(guardDirective.name): visitors get \(status) instead of the page", at: location.directive.location, notes: [
                    .init("protected here", at: guardDirective.location),
                    Self.fix(guardDirective.name == "deny" ? "add 'allow all;' to this location" : "add '\(guardDirective.name) off;' to this location"),
                ]))
            }
        }
        return found
    }
}
