/// `--map INSTALL_PATH=LOCAL_DIR`: the folder a server reads on the machine it runs on, and
/// its copy here.
public struct PagePathMap: Sendable, Equatable {
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
    public func covers(_ path: String) -> Bool {
        guard path.hasPrefix(installPath) else { return false }
        let rest = path.utf8.dropFirst(installPath.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/")
    }

    /// `path` read through the longest matching install path.
    public static func apply(_ maps: [PagePathMap], to path: String) -> String {
        var best: PagePathMap?
        for map in maps where map.covers(path) && map.installPath.utf8.count > best?.installPath.utf8.count ?? -1 { best = map }
        guard let best else { return path }
        // `covers` found the install path ending at a `/` or the end: the rest starts there.
        return best.localPath + path[path.utf8.index(path.startIndex, offsetBy: best.installPath.utf8.count)...]
    }
}
