import DetourDiagnostics

/// 9. The location serving error pages is behind `deny all`, `auth_basic` or `auth_request`,
/// its own or inherited: visitors get 403 or 401 instead of the page.
struct ProtectedPageRule: NginxRule {
    static let id = "nginx.error-page-protected"

    func check(_ server: NginxServer, in context: NginxCheckContext) -> [Diagnostic] {
        eachServingLocation(of: server, in: context) { location, uris in
            guard let guardDirective = location.scope.protections.first else { return [] }
            let status = guardDirective.name == "deny" ? "403" : "401"
            return [.error(Self.id, "location '\(location.pattern)' serves error pages (\(uris.joined(separator: ", "))) behind \(guardDirective.name): visitors get \(status) instead of the page", at: location.directive.location, notes: [
                .init("protected here", at: guardDirective.location),
                Self.fix(guardDirective.name == "deny" ? "add 'allow all;' to this location" : "add '\(guardDirective.name) off;' to this location"),
            ])]
        }
    }
}
