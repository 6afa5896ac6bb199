import DetourDiagnostics

/// 9. The location serving error pages is behind `deny all`, `auth_basic` or `auth_request`,
/// its own or inherited: visitors get 403 or 401 instead of the page.
struct ProtectedPageRule: NginxRule {
    static let id = "nginx.error-page-protected"

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        eachServingLocation(facts) { location, uris in
            guard let guardDirective = location.scope.protections.first else { return [] }
            let status = guardDirective.kind == .deny ? "403" : "401"
            return [.error(Self.id, "\(location.description) serves error pages (\(uris.joined(separator: ", "))) behind \(guardDirective.name): visitors get \(status) instead of the page", at: location.directive.location, notes: [
                .init("protected here", at: guardDirective.location),
                Self.fix(guardDirective.kind == .deny ? "add 'allow all;' to this location" : "add '\(guardDirective.name) off;' to this location"),
            ])]
        }
    }
}
