import DetourDiagnostics
import DetourProxyCore

/// A page file a line names does not exist: HAProxy opens every one when it starts, and
/// refuses to start without it.
struct HAProxyMissingPageRule: HAProxyRule {
    static let about = HAProxyRules.missingFile

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        ErrorPageChecks.missingFiles(context.loaded).map { route, _, files in
            let page = route.origin
            let file = files[0]
            return Self.finding(
                "\(page.directive) for \(page.code) names \(context.shown(page, file)), which does not exist: HAProxy refuses to start ('error opening file')",
                at: page.pathLocation,
                notes: [
                    Self.fixMissingFile("install detour's public/errors/ there, or point the line at the installed pages")
                ])
        }
    }
}
