import DetourDiagnostics
import DetourProxyCore

/// An ErrorDocument whose local path leads, through the Alias or the DocumentRoot, to no file:
/// Apache answers its built-in page with "Additionally, a 503 … error was encountered while
/// trying to use an ErrorDocument", naming 503 whatever the real failure; `apache2 -t` says nothing.
struct ApacheMissingPageRule: ApacheRule {
    static let about = ApacheRules.missingFile

    func check(_ model: ApacheModel, in context: ApacheCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for site in model.sites {
            found += site.localDocuments.compactMap { local in finding(local.document, local.paths, context) }
        }
        return found
    }

    private func finding(_ document: ApacheErrorDocument, _ paths: [ApacheLocalDocument.Path], _ context: ApacheCheckContext) -> Diagnostic? {
        guard paths.allSatisfy({ $0.proxy == nil }) else { return nil }
        let missing = paths.compactMap { path -> PageFile? in
            guard let file = path.file else { return nil }
            let page = context.pageFiles.file(file, uri: path.url)
            return page.exists ? nil : page
        }
        guard let first = missing.first else { return nil }
        let more = missing.count > 1 ? " and \(missing.count - 1) more" : ""
        return .error(
            Self.id,
            "ErrorDocument \(document.code) '\(document.written)' leads to \(first.shown)\(more), which does not exist: visitors get Apache's built-in page",
            at: document.location,
            notes: [
                Self.fixMissingFile("install detour's public/errors/ where the Alias or DocumentRoot points")
            ])
    }
}
