import DetourDiagnostics
import DetourProxyCore
import Foundation

/// What the rules work from besides the site: the codes detour made pages for, the page
/// files through the path maps, the files' names, and the file each error route sends for a code.
struct CaddyCheckContext: Sendable {
    let pageCodes: [Int]
    let pageFiles: PageFileLookup
    let files: SourceFiles

    init(pageCodes: [Int], maps: [PagePathMap], files: SourceFiles) {
        self.pageCodes = pageCodes
        pageFiles = PageFileLookup(maps: maps)
        self.files = files
    }

    func location(of token: CaddyToken) -> SourceLocation {
        token.location(in: files)
    }

    /// Where `block` uses `token`: the `import` line that brought it into the block (what an
    /// operator changes there), else the word itself.
    func placeOfUse(of token: CaddyToken, in block: CaddyToken) -> SourceLocation {
        let place = token.placeOfUse(in: files)
        return place == block.placeOfUse(in: files) ? token.location(in: files) : place
    }

    /// The files `route` sends for `code` (one per value a `map` placeholder can take); empty
    /// when it sends none or the path cannot be known before a request. With `try_files`, the
    /// first name that exists, else the first name.
    func pageFiles(_ route: CaddyErrorRoute, code: Int, in site: CaddySite) -> [PageFile] {
        guard route.fileServer != nil, route.respond == nil, let target = route.pageTarget, let root = route.root?.last?.text,
            !root.utf8.contains(UInt8(ascii: "{"))
        else { return [] }
        guard target[0].text == "try_files" else {
            return target.count >= 2 ? files(target[target.count - 1].text, under: root, code: code, in: site, stripping: route.strippedPrefix) : []
        }
        let names = target.dropFirst().prefix { !($0.text == "{" && !$0.isQuoted) }
        let candidates = names.map { files($0.text, under: root, code: code, in: site, stripping: route.strippedPrefix) }
        guard let first = candidates.first, !first.isEmpty, candidates.allSatisfy({ $0.count == first.count }) else { return [] }
        return first.indices.map { index in candidates.first { $0[index].exists }?[index] ?? first[index] }
    }

    /// The files a URI with placeholders names under `root`, less the prefix a `handle_path`
    /// stripped (`stripping`); empty when a placeholder is known only at request time.
    private func files(_ target: String, under root: String, code: Int, in site: CaddySite, stripping: String) -> [PageFile] {
        var uris = [""]
        // The target's literal parts and placeholders, read once: the code, or each value a
        // `map` gives; anything else is known only when a request comes.
        var rest = Substring(target)
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") else {
                uris = uris.map { $0 + rest }
                break
            }
            let literal = rest[..<open]
            let placeholder = String(rest[open...close])
            rest = rest[rest.index(after: close)...]
            let values: [String]
            if placeholder == "{err.status_code}" || placeholder == "{http.error.status_code}" {
                values = [String(code)]
            } else if let mapped = site.mapValues[placeholder], !mapped.isEmpty, uris.count * mapped.count <= 256 {
                values = mapped
            } else {
                return []
            }
            uris = uris.flatMap { uri in values.map { uri + literal + $0 } }
        }
        var folder = root
        while folder.utf8.count > 1, folder.utf8.last == UInt8(ascii: "/") { folder.removeLast() }
        return uris.map { uri in
            var path = uri.utf8.contains(UInt8(ascii: "?")) ? String(uri[..<uri.firstIndex(of: "?")!]) : uri
            if !stripping.isEmpty { path = CaddyPagePath.strip(stripping, from: path) }
            return pageFiles.file(folder + (path.utf8.first == UInt8(ascii: "/") ? path : "/" + path), uri: path)
        }
    }

    /// Whether `route` answers `code` (its matcher admits it).
    func answers(_ route: CaddyErrorRoute, _ code: Int) -> Bool {
        route.codes?.contains(code) ?? true
    }
}
