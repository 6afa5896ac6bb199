import DetourDiagnostics
import DetourProxyCore

/// An ErrorDocument whose local path leads, through the Alias or the DocumentRoot, to no file:
/// Apache answers its built-in page with "Additionally, a 503 … error was encountered while
/// trying to use an ErrorDocument", naming 503 whatever the real failure; `apache2 -t` says nothing.
struct ApacheMissingPageRule: ApacheRule {
    static let about = ApacheRules.missingFile

    func check(_ site: ApacheSite, in context: ApacheCheckContext) -> [Diagnostic] {
        ErrorPageChecks.missingFiles(site.model).map { route, _, files in
            let document = route.origin.local.document
            let more = files.count > 1 ? " and \(files.count - 1) more" : ""
            return Self.finding(
                "ErrorDocument \(document.code) '\(document.written)' leads to \(files[0].shown)\(more), which does not exist: visitors get Apache's built-in page",
                at: document.location,
                notes: [
                    Self.fixMissingFile("install detour's public/errors/ where the Alias or DocumentRoot points")
                ])
        }
    }
}
