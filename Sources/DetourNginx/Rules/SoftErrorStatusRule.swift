import DetourDiagnostics

/// 8. `=200` (or any 2xx/3xx) on an error, or `=` on a static page: crawlers and monitors
/// see success while the site is failing. A sign-in page (`error_page 401 =200 /login;`
/// under `auth_request`) answers with 200 on purpose.
struct SoftErrorStatusRule: NginxRule {
    static let about = RuleDescription(
        "nginx.error-page-soft-status", .error,
        summary: "an error_page turns an error into a success status",
        consequence: "a 200 for an error (`=200`, or `=` on a static page); a sign-in page for 401/403 under `auth_request` or `auth_basic` is not one"
    )

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        eachPage(of: server, facts) { server, page, target in
            let errors = page.codes.filter { $0 >= 400 }
            guard !errors.isEmpty, !Self.isSignIn(page, in: server) else { return nil }
            switch page.statusOverride {
            case .status(let status) where status < 400:
                return .error(Self.id, "'=\(status)' turns \(Self.codes(errors)) into \(status): crawlers and monitors see success while the site fails", at: overrideLocation(page), notes: [
                    Self.fix("drop '=\(status)' so visitors get the real status with the page"),
                ])
            case .fromTarget:
                guard case .uri(_, _, _?) = target else { return nil }
                return .error(Self.id, "'=' takes the status of the page's own response, 200 for a static file: \(Self.codes(errors)) would be sent as 200", at: overrideLocation(page), notes: [
                    Self.fix("drop '=' so visitors get the real status with the page"),
                ])
            default:
                return nil
            }
        }
    }

    /// Where `=` or `=code` was written.
    private func overrideLocation(_ page: NginxErrorPage) -> SourceLocation {
        page.directive.arguments.first { $0.value.hasPrefix("=") }?.location ?? page.directive.location
    }
}
