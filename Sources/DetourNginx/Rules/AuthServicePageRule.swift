import DetourDiagnostics

/// An `auth_request` service's location that intercepts its upstream's errors, under an
/// `error_page 401` (or 403) that answers with a success (`=200`, or `=` and the target's own
/// status): the service's refusal becomes that page's 200 inside the subrequest, and
/// auth_request lets the visitor in (real nginx 1.22).
struct AuthServicePageRule: NginxRule {
    static let about = NginxRules.authServicePage

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        server.authServiceLocations.compactMap { location in
            guard let pass = location.upstreamPass, let intercept = location.scope.intercepts[pass.module] else { return nil }
            guard let code = [401, 403].first(where: { Self.grants(location.scope.page(for: $0)) }), let page = location.scope.page(for: code) else {
                return nil
            }
            return Self.finding(
                "the auth service's \(location.description) intercepts its errors under 'error_page \(code) \(Self.override(page)) \(page.target)': the service's \(code) becomes that page's success inside the subrequest, and auth_request lets every visitor in",
                at: page.directive.location,
                notes: [
                    .init("intercepting is switched on here", at: intercept.location),
                    .init("the auth service's location", at: location.directive.location),
                    Self.fix("add '\(pass.module)_intercept_errors off;' to the auth service's location, so auth_request reads the service's own status"),
                ])
        }
    }

    /// Whether the page answers with a success: `=2xx`, or `=` (the target's own status).
    private static func grants(_ page: NginxErrorPage?) -> Bool {
        switch page?.statusOverride {
        case .status(let status): (200..<300).contains(status)
        case .fromTarget: true
        default: false
        }
    }

    private static func override(_ page: NginxErrorPage) -> String {
        if case .status(let status) = page.statusOverride { return "=\(status)" }
        return "="
    }
}
