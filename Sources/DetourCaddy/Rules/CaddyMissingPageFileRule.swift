import DetourDiagnostics

/// The file a `handle_errors` route rewrites to (or every name its `try_files` tries) does not
/// exist under its `root`: Caddy keeps the status and sends an empty body, and `caddy validate`
/// says nothing.
struct CaddyMissingPageFileRule: CaddyRule {
    static let about = RuleDescription(
        "caddy.error-page-missing-file", .error,
        summary: "a handle_errors route rewrites (or try_files) to a page file that does not exist under its root",
        consequence: "the status with an empty body: Caddy swallows the failure inside handle_errors"
    )

    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic] {
        zip(site.errorRoutes, site.pageFiles).compactMap { route, files in
            guard let target = route.pageTarget, let root = route.root else { return nil }
            var missing: [(code: Int, file: CaddyCheckContext.PageFile)] = []
            for code in context.pageCodes {
                for file in files[code] ?? [] where !file.exists { missing.append((code, file)) }
            }
            guard !missing.isEmpty else { return nil }
            let shown = missing.prefix(4).map { "\($0.file.installPath)\($0.file.localPath == $0.file.installPath ? "" : " (here \($0.file.localPath))")" }
            let more = missing.count > 4 ? " and \(missing.count - 4) more" : ""
            return .error(Self.id, "error pages for \(Self.codes(Set(missing.map(\.code)))) resolve to files that do not exist: \(shown.joined(separator: ", "))\(more): visitors get the status with an empty body", at: context.location(of: target[0]), notes: [
                .init("the folder comes from here", at: context.location(of: root[0])),
                Self.fix("put the pages in that folder, or point root at the folder that holds them; --map INSTALL_PATH=LOCAL_DIR checks a deployment path against a local copy"),
            ])
        }
    }
}
