import DetourDiagnostics

/// 9. The location serving error pages is behind `deny all`, `auth_basic` or `auth_request`:
/// visitors get 403 or 401 instead of the page.
struct ProtectedPageRule: NginxRule {
    static let id = "nginx.error-page-protected"

    func check(_ context: NginxCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for server in context.servers {
            for page in context.errorPages(in: server) {
                guard case .uri(let uri, let location?, _) = context.target(of: page, in: server), let guardDirective = location.protections.first else { continue }
                let status = guardDirective.name == "deny" ? "403" : "401"
                found.append(.error(Self.id, "error page '\(uri)' is served from location '\(location.pattern)', which is protected by \(guardDirective.name): visitors get \(status) instead of the page", at: page.directive.arguments.last?.location ?? page.directive.location, notes: [
                    .init("protected here", at: guardDirective.location),
                    Self.fix("serve the pages from a location of their own without \(guardDirective.name)"),
                ]))
            }
        }
        return found
    }
}
