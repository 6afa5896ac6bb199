import DetourDiagnostics
import Foundation
import Synchronization

/// What every rule works from besides its server: the codes detour made pages for, the
/// path maps, and where a server's error pages lead. Shared by the threads checking servers.
final class NginxCheckContext: Sendable {
    /// Statuses with a generated page in the pages folder, sorted.
    let pageCodes: [Int]
    let maps: [NginxPathMap]
    /// Where nginx looks for a relative `root` (Debian's nginx prefix).
    static let nginxPrefix = "/usr/share/nginx/"
    private let existing = Mutex<[String: Bool]>([:])

    init(pageCodes: [Int], maps: [NginxPathMap]) {
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
        if let location, let alias = location.alias?.firstValue {
            switch location.match {
            case .exact: path = alias
            case .prefix, .preferredPrefix: path = alias + uri.dropFirst(location.pattern.count)
            default: return nil
            }
        } else {
            var root = location?.scope.root ?? server.scope.root
            if root.utf8.contains(UInt8(ascii: "$")) { return nil }
            while root.count > 1, root.hasSuffix("/") { root.removeLast() }
            path = root + uri
        }
        if !path.hasPrefix("/") { path = Self.nginxPrefix + path }
        let local = NginxPathMap.apply(maps, to: path)
        return NginxPageFile(installPath: path, localPath: local, exists: exists(local))
    }
}

/// `--map INSTALL_PATH=LOCAL_DIR`: the folder nginx reads on the server, and its copy here.
public struct NginxPathMap: Sendable, Equatable {
    public var installPath: String
    public var localPath: String

    public init(installPath: String, localPath: String) {
        self.installPath = installPath.hasSuffix("/") ? String(installPath.dropLast()) : installPath
        self.localPath = localPath.hasSuffix("/") ? String(localPath.dropLast()) : localPath
    }

    /// `INSTALL=LOCAL`, or nil when malformed.
    public init?(argument: String) {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0].hasPrefix("/"), !parts[1].isEmpty else { return nil }
        self.init(installPath: parts[0], localPath: parts[1])
    }

    /// Whether `path` is the install path or inside it.
    func covers(_ path: String) -> Bool {
        guard path.hasPrefix(installPath) else { return false }
        let rest = path.utf8.dropFirst(installPath.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/")
    }

    /// The longest matching install path wins.
    static func apply(_ maps: [NginxPathMap], to path: String) -> String {
        var best: NginxPathMap?
        for map in maps where map.covers(path) && map.installPath.utf8.count > best?.installPath.utf8.count ?? -1 { best = map }
        guard let best else { return path }
        return best.localPath + path.dropFirst(best.installPath.count)
    }
}
