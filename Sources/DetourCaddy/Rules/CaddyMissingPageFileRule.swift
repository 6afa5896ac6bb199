import DetourDiagnostics
import DetourProxyCore

/// The file a `handle_errors` route rewrites to (or every name its `try_files` tries) does not
/// exist under its `root`: Caddy keeps the status and sends an empty body, and `caddy validate`
/// says nothing.
struct CaddyMissingPageFileRule: CaddyRule {
    static let about = CaddyRules.missingFile

    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic] {
        ErrorPageChecks.missingFiles(site.model).compactMap { route, codes, files in
            guard case .errors(let errors) = route.origin, let target = errors.pageTarget, let root = errors.root else { return nil }
            // try_files names each file it tries; rewrite names one.
            let written =
                target[0].text == "try_files"
                ? target.dropFirst().prefix { !($0.text == "{" && !$0.isQuoted) }.map(\.text).joined(separator: "' or '") : target[target.count - 1].text
            let shown = files.prefix(4).map(\.shown).joined(separator: ", ") + (files.count > 4 ? " and \(files.count - 4) more" : "")
            return Self.finding(
                "error page '\(written)' for \(Self.codes(codes)) resolves to \(shown), which \(files.count == 1 ? "does" : "do") not exist: visitors get the status with an empty body",
                at: context.location(of: target[0]),
                notes: [.init("the folder comes from here", at: context.location(of: root[0]))]
                    + (errors.strippedPrefix.isEmpty
                        ? [] : [Diagnostic.Note("handle_path strips '\(errors.strippedPrefix)' from the page's path before root is added", at: nil)])
                    + [Self.fixMissingFile("put the pages in that folder, or point root at the folder that holds them")])
        }
    }
}
