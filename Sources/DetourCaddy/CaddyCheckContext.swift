import DetourDiagnostics
import DetourProxyCore
import Foundation

/// What the rules work from besides the site: the codes detour made pages for, the path
/// maps, the files' names, and the file each error route sends for a code.
struct CaddyCheckContext: Sendable {
    let pageCodes: [Int]
    let maps: [PagePathMap]
    let files: [String]

    func location(of token: CaddyToken) -> SourceLocation {
        SourceLocation(path: files[token.file], line: token.line, column: token.column)
    }

    /// A file an error route sends: the URI after `rewrite`, where it is on the server, and
    /// whether its copy here exists.
    struct PageFile: Sendable {
        var uri: String
        var installPath: String
        var localPath: String
        var exists: Bool
    }

    /// The files `route` sends for `code` (one per value a `map` placeholder can take); empty
    /// when it sends none or the path cannot be known before a request.
    func pageFiles(_ route: CaddyErrorRoute, code: Int, in site: CaddySite) -> [PageFile] {
        guard route.fileServer != nil, let rewrite = route.rewrite, rewrite.count >= 2, let root = route.root?.last?.text, !root.contains("{") else { return [] }
        let target = rewrite[rewrite.count - 1].text
        var uris = [target.replacingOccurrences(of: "{err.status_code}", with: String(code))
            .replacingOccurrences(of: "{http.error.status_code}", with: String(code))]
        while let open = uris.first?.range(of: "{"), let close = uris.first?[open.upperBound...].firstIndex(of: "}") {
            let placeholder = String(uris[0][open.lowerBound...close])
            guard let values = site.mapValues[placeholder], !values.isEmpty, uris.count * values.count <= 256 else { return [] }
            uris = uris.flatMap { uri in values.map { uri.replacingOccurrences(of: placeholder, with: $0) } }
        }
        return uris.map { uri in
            let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
            var folder = root
            while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
            let installPath = folder + (path.hasPrefix("/") ? path : "/" + path)
            let localPath = PagePathMap.apply(maps, to: installPath)
            return PageFile(uri: path, installPath: installPath, localPath: localPath, exists: FileManager.default.fileExists(atPath: localPath))
        }
    }

    /// Whether `route` answers `code` (its matcher admits it).
    func answers(_ route: CaddyErrorRoute, _ code: Int) -> Bool {
        route.codes?.contains(code) ?? true
    }
}
