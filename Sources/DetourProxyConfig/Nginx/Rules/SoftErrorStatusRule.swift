import DetourDiagnostics

/// 8. `=200` (or any 2xx/3xx) on an error, or `=` on a static page: crawlers and monitors
/// see success while the site is failing.
struct SoftErrorStatusRule: NginxRule {
    static let id = "nginx.error-page-soft-status"

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        eachPage(of: server, facts) { _, page, target in
            let errors = page.codes.filter { $0 >= 400 }
            guard !errors.isEmpty else { return nil }
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
