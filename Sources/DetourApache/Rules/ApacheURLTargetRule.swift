import DetourDiagnostics
import DetourProxyCore

/// An ErrorDocument that is a full URL: Apache redirects to it, so the visitor's client gets a
/// 302 and the error's status is lost (except for 401, where Apache refuses to redirect).
struct ApacheURLTargetRule: ApacheRule {
    static let about = ApacheRules.errorDocumentUrl

    func check(_ site: ApacheSite, in context: ApacheCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for document in site.documents {
            guard case .url(let url) = document.target, document.code != 401 else { continue }
            found.append(
                Self.finding(
                    "ErrorDocument \(document.code) is the URL '\(url)': Apache answers 302 and redirects there, so the \(document.code) is lost",
                    at: document.location,
                    notes: [
                        Self.fix("serve the page from this server with a local path ('/detour-errors/…', as detour's snippet does)")
                    ]))
        }
        return found
    }
}
