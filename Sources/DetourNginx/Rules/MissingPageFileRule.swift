import DetourDiagnostics
import DetourProxyCore

/// 1. The page's URI leads to a file that does not exist: nginx answers 404 instead.
struct MissingPageFileRule: NginxRule {
    static let about = NginxRules.missingFile
    /// Folders that show a file path was written where error_page wants a URI.
    static let fileSystemRoots = ["/var/", "/usr/", "/srv/", "/opt/", "/home/", "/etc/"]

    /// A URI that looks like a file path gets told so: error_page wants a URI.
    static func filePathHint(_ uri: String, _ page: NginxErrorPage) -> Diagnostic.Note? {
        guard fileSystemRoots.contains(where: uri.hasPrefix) else { return nil }
        return .init(
            "'\(uri)' looks like a file path, but error_page takes a URI: write 'error_page \(page.codes.map(String.init).joined(separator: " ")) /errors/\(uri.split(separator: "/").last ?? "");' and serve /errors/ from a location whose root is the folder"
        )
    }

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        ErrorPageChecks.missingFiles(facts.site).compactMap { route, _, files in
            guard case .uri(let uri, let location, _) = route.origin.target, let file = files.first else { return nil }
            let page = route.origin.page
            var notes: [Diagnostic.Note] = []
            if let root = location?.alias ?? location?.scope.rootDirective ?? server.scope.rootDirective {
                notes.append(.init("the folder comes from here", at: root.location))
            }
            if let hint = Self.filePathHint(uri, page) { notes.append(hint) }
            var outcome = "nginx would answer 404 instead"
            if let tryFiles = location?.tryFiles, let fallback = tryFiles.lastValue {
                // With try_files the missing file leads to its last argument, not straight to 404.
                outcome = fallback.hasPrefix("=") ? "nginx would answer \(fallback.dropFirst()) instead" : "try_files hands the request to \(fallback) instead"
                notes.append(.init("try_files decides what happens to a missing file", at: tryFiles.location))
            }
            notes.append(Self.fixMissingFile("put the pages in that folder, or point root/alias at the folder that holds them"))
            return Self.finding(
                "error page '\(uri)' for \(Self.codes(page.codes)) resolves to \(file.shown), which does not exist: \(outcome)",
                at: page.targetLocation, notes: notes)
        }
    }
}
