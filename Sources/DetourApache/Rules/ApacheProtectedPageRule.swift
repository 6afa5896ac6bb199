import DetourDiagnostics
import DetourProxyCore

/// An ErrorDocument page behind `Require` or authentication that visitors do not meet: the
/// page's own request is refused, and Apache answers its built-in page instead.
struct ApacheProtectedPageRule: ApacheRule {
    static let about = ApacheRules.protected

    func check(_ site: ApacheSite, in context: ApacheCheckContext) -> [Diagnostic] {
        ErrorPageChecks.protectedPages(site.model).compactMap { route, _, _ in
            let document = route.origin.local.document
            guard let stand = route.origin.keptOutBy else { return nil }
            return Self.finding(
                "ErrorDocument \(document.code) '\(document.written)' is behind '\(stand.what)': visitors who do not meet it get Apache's built-in page",
                at: document.location,
                notes: [
                    .init("this keeps them out", at: stand.location),
                    Self.fix(
                        "let the pages through: 'Require all granted', or detour's 'Require expr %{ENV:REDIRECT_STATUS} =~ /^[45]/' in the pages' <Directory>"),
                ])
        }
    }
}
