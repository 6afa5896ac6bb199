import DetourDiagnostics
import DetourProxyCore

/// An ErrorDocument page behind `Require` or authentication that visitors do not meet: the
/// page's own request is refused, and Apache answers its built-in page instead.
struct ApacheProtectedPageRule: ApacheRule {
    static let about = ApacheRules.protected

    func check(_ model: ApacheModel, in context: ApacheCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for site in model.sites where !site.guards.isEmpty {
            found += site.localDocuments.compactMap { local in finding(local.document, local.paths, in: site) }
        }
        return found
    }

    private func finding(_ document: ApacheErrorDocument, _ paths: [ApacheLocalDocument.Path], in scope: ApacheScope) -> Diagnostic? {
        for path in paths where path.proxy == nil {
            guard let stand = scope.guardOf(url: path.url, file: path.file) else { continue }
            return .error(
                Self.id,
                "ErrorDocument \(document.code) '\(document.written)' is behind '\(stand.what)': visitors who do not meet it get Apache's built-in page",
                at: document.location,
                notes: [
                    .init("this keeps them out", at: stand.location),
                    Self.fix(
                        "let the pages through: 'Require all granted', or detour's 'Require expr %{ENV:REDIRECT_STATUS} =~ /^[45]/' in the pages' <Directory>"),
                ])
        }
        return nil
    }
}
