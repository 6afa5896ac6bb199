import DetourDiagnostics
import DetourProxyCore
import Foundation
import Synchronization

/// What every rule works from besides its server: the codes detour made pages for, the
/// path maps, and where a server's error pages lead. Shared by the threads checking servers.
final class NginxCheckContext: Sendable {
    /// Statuses with a generated page in the pages folder, sorted.
    let pageCodes: [Int]
    let maps: [PagePathMap]
    /// Where nginx looks for a relative `root` (Debian's nginx prefix).
    static let nginxPrefix = "/usr/share/nginx/"
    private let existing = Mutex<[String: Bool]>([:])

    init(pageCodes: [Int], maps: [PagePathMap]) {
        self.pageCodes = pageCodes
        self.maps = maps
    }

    /// Every error page in effect in `server` with where it leads, and the static locations
    /// that serve them.
    func facts(for server: NginxServer) -> NginxServerFacts {
        let pages = errorPages(in: server).map { ($0, target(of: $0, in: server)) }
        var order: [ObjectIdentifier] = []
        var byLocation: [ObjectIdentifier: (NginxLocation, [String])] = [:]
        for (_, target) in pages {
            guard case .uri(let uri, let location?, _?) = target else { continue }
            let key = ObjectIdentifier(location)
            if byLocation[key] == nil { order.append(key); byLocation[key] = (location, []) }
            if byLocation[key]?.1.contains(uri) == false { byLocation[key]?.1.append(uri) }
        }
        return NginxServerFacts(pages: pages, servingLocations: order.compactMap { byLocation[$0] })
    }

    private func exists(_ path: String) -> Bool {
        if let known = existing.withLock({ $0[path] }) { return known }
        let found = FileManager.default.fileExists(atPath: path)
        existing.withLock { $0[path] = found }
        return found
    }

    /// Every `error_page` directive that matters in `server`, each once: those in effect at
    /// server level and those a location sets itself.
    private func errorPages(in server: NginxServer) -> [NginxErrorPage] {
        var pages = server.scope.errorPages
        for location in server.allLocations where location.definesErrorPages {
            pages += location.scope.errorPages
        }
        return pages
    }

    func target(of page: NginxErrorPage, in server: NginxServer) -> NginxPageTarget {
        if page.isNamedLocation { return .named(page.target, server.namedLocation(page.target)) }
        if page.hasVariables { return .dynamic }
        let uri = page.path
        let location = server.location(for: uri)
        return .uri(uri, location: location, file: file(for: uri, in: location, server: server))
    }

    /// The file a static location would send for `uri`; nil when it proxies or returns.
    private func file(for uri: String, in location: NginxLocation?, server: NginxServer) -> NginxPageFile? {
        if let location, location.upstreamPass != nil || location.returnDirective != nil { return nil }
        var path: String
        // A regex location's captures ($1, $name) may build the path; other variables cannot
        // be known before a request comes. The regex runs again only for a path that needs it.
        func expanded(_ text: String) -> String? {
            guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
            return NginxVariables.expand(text, location?.captures(in: uri) ?? [:])
        }
        if let location, let alias = location.alias?.firstValue {
            switch location.match {
            case .exact: path = alias
            case .prefix, .preferredPrefix: path = alias + uri.dropFirst(location.pattern.count)
            case .regex:
                guard let built = expanded(alias) else { return nil }
                path = built
            case .named, .condition: return nil
            }
        } else {
            guard var root = expanded(location?.scope.root ?? server.scope.root) else { return nil }
            while root.count > 1, root.hasSuffix("/") { root.removeLast() }
            path = root + uri
        }
        if !path.hasPrefix("/") { path = Self.nginxPrefix + path }
        let local = PagePathMap.apply(maps, to: path)
        return NginxPageFile(installPath: path, localPath: local, exists: exists(local))
    }
}
