import DetourDiagnostics
import DetourProxyCore

/// An ErrorDocument that starts neither with `/` nor with a scheme: Apache sends the words
/// themselves as the page, so `errors/503.html` reaches visitors as that text.
struct ApacheTextTargetRule: ApacheRule {
    static let about = ApacheRules.errorDocumentText

    func check(_ site: ApacheSite, in context: ApacheCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for document in site.documents {
            guard case .text(let text) = document.target else { continue }
            let looksLikePath = text.contains("/") || text.hasSuffix(".html")
            found.append(
                Self.finding(
                    "ErrorDocument \(document.code) '\(text)' is neither a local path nor a URL: Apache sends these words as the whole page",
                    at: document.location,
                    notes: [
                        Self.fix(
                            looksLikePath
                                ? "start the path with '/' ('/\(text)')" : "point it at a page: '/detour-errors/\(document.code).html' with detour's snippet")
                    ]))
        }
        return found
    }
}
