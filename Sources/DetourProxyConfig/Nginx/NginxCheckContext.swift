import DetourDiagnostics
import Foundation
import Synchronization

/// What every rule works from: the servers, the codes detour made pages for, and for each
/// server where its error pages lead. Those facts are worked out once, for all servers in
/// parallel, before any rule runs; rules only read them.
final class NginxCheckContext: Sendable {
    /// One server's error pages with their targets, and the static locations serving them.
    struct ServerFacts: Sendable {
        var pages: [(NginxErrorPage, NginxPageTarget)]
        var servingLocations: [(NginxLocation, [String])]
    }

    let servers: [NginxServer]
    /// Statuses with a generated page in the pages folder, sorted.
    let pageCodes: [Int]
    let maps: [NginxPathMap]
    /// Where nginx looks for a relative `root` (Debian's nginx prefix).
    static let nginxPrefix = "/usr/share/nginx/"
    private let existing = Mutex<[String: Bool]>([:])
    /// Filled once at the end of init, only read afterwards.
    private nonisolated(unsafe) var factsByServer: [ObjectIdentifier: ServerFacts] = [:]

    init(servers: [NginxServer], pageCodes: [Int], maps: [NginxPathMap]) {
        self.servers = servers
        self.pageCodes = pageCodes
        self.maps = maps
        let facts = servers.concurrentMap { server in (ObjectIdentifier(server), self.resolve(server)) }
        factsByServer = Dictionary(facts, uniquingKeysWith: { first, _ in first })
    }

    func facts(_ server: NginxServer) -> ServerFacts {
        factsByServer[ObjectIdentifier(server)] ?? ServerFacts(pages: [], servingLocations: [])
    }

    private func resolve(_ server: NginxServer) -> ServerFacts {
        let pages = errorPages(in: server).map { ($0, target(of: $0, in: server)) }
        var order: [ObjectIdentifier] = []
        var byLocation: [ObjectIdentifier: (NginxLocation, [String])] = [:]
        for (_, target) in pages {
            guard case .uri(let uri, let location?, _?) = target else { continue }
            let key = ObjectIdentifier(location)
            if byLocation[key] == nil { order.append(key); byLocation[key] = (location, []) }
            if byLocation[key]?.1.contains(uri) == false { byLocation[key]?.1.append(uri) }
        }
        return ServerFacts(pages: pages, servingLocations: order.compactMap { byLocation[$0] })
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
        if let location, let alias = location.alias?.values.first {
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

    /// The longest matching install path wins.
    static func apply(_ maps: [NginxPathMap], to path: String) -> String {
        let matching = maps.filter { path == $0.installPath || path.hasPrefix($0.installPath + "/") }
        guard let best = matching.max(by: { $0.installPath.count < $1.installPath.count }) else { return path }
        return best.localPath + path.dropFirst(best.installPath.count)
    }
}
