import DetourDiagnostics

/// An ErrorDocument for a local path in one site, with the paths it names (one per value of
/// its `%{ENV:…}` parts) and where each leads: what several rules follow, worked out once, on
/// the core that read the site.
struct ApacheLocalDocument: Sendable {
    var document: ApacheErrorDocument
    var paths: [Path]

    struct Path: Sendable {
        var url: String
        /// The line that sends it to the upstream; nil when served here.
        var proxy: ApacheProxyLine?
        /// The file it is served from (Alias, else DocumentRoot); nil when proxied or none.
        var file: String?
    }

    /// A site's ErrorDocuments for local paths, followed.
    static func all(in scope: ApacheScope.Fields) -> [ApacheLocalDocument] {
        (scope.errorDocuments + scope.sectionErrorDocuments).compactMap { document in
            guard case .path(let path) = document.target, let urls = paths(of: path, in: scope) else { return nil }
            let followed = urls.map { url in
                let proxy = scope.proxy(of: url)
                return Path(url: url, proxy: proxy, file: proxy == nil ? scope.file(of: url) : nil)
            }
            return ApacheLocalDocument(document: document, paths: followed)
        }
    }

    /// The local URL paths an ErrorDocument target names: `%{ENV:NAME}` takes each value the
    /// configuration sets (`SetEnv`, `SetEnvIf`); nil when it holds another expression.
    static func paths(of target: String, in scope: ApacheScope.Fields) -> [String]? {
        guard target.utf8.contains(UInt8(ascii: "%")) else { return [target] }
        var paths = [""]
        var rest = Substring(target)
        while let open = rest.range(of: "%{") {
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { return nil }
            let name = rest[open.upperBound..<close]
            guard name.hasPrefix("ENV:"), let values = scope.environment[String(name.dropFirst(4))], !values.isEmpty else { return nil }
            let literal = rest[..<open.lowerBound]
            var seen = Set<String>()
            let unique = values.filter { seen.insert($0).inserted }
            paths = paths.flatMap { path in unique.map { path + literal + $0 } }
            guard paths.count <= 256 else { return nil }
            rest = rest[rest.index(after: close)...]
        }
        return paths.map { $0 + rest }
    }
}
