import Foundation
import Synchronization

/// A file a server sends as an error page: the request path that leads to it, where the
/// server reads it, and its copy here after `--map`. A class: every rule and the coverage
/// table pass it around, and a reference costs one count to share.
public final class PageFile: Sendable, Hashable {
    /// The path of the page's own request (`/errors/502.html`).
    public let uri: String
    /// The path as the server sees it where it runs.
    public let installPath: String
    /// The path checked here.
    public let localPath: String
    public let exists: Bool

    public init(uri: String, installPath: String, localPath: String, exists: Bool) {
        self.uri = uri
        self.installPath = installPath
        self.localPath = localPath
        self.exists = exists
    }

    public static func == (left: PageFile, right: PageFile) -> Bool {
        left.uri == right.uri && left.installPath == right.installPath && left.localPath == right.localPath
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(installPath)
        hasher.combine(uri)
    }

    /// Whether the file checked here lies directly in `folder` (a standardized path).
    public func isIn(folder: String) -> Bool {
        URL(fileURLWithPath: localPath).standardizedFileURL.deletingLastPathComponent().path == folder
    }

    /// `'/srv/errors/502.html'`, with `(here 'pages/502.html')` when `--map` moved it.
    public var shown: String {
        localPath == installPath ? "'\(installPath)'" : "'\(installPath)' (here '\(localPath)')"
    }
}

/// Finds the file behind a server path through `--map`, looking at each once: thousands of
/// sites share one page folder, and they are checked on several threads.
public final class PageFileLookup: Sendable {
    public let maps: [PagePathMap]
    /// Each file once, by where the server reads it and the request that leads to it.
    private let known = Mutex<[Key: PageFile]>([:])

    private struct Key: Hashable {
        var installPath: String
        var uri: String
    }

    public init(maps: [PagePathMap]) {
        self.maps = maps
    }

    /// Every file looked at so far, each once (by where the server reads it).
    public var files: [PageFile] {
        known.withLock { known in Array(Dictionary(known.values.map { ($0.installPath, $0) }, uniquingKeysWith: { first, _ in first }).values) }
    }

    /// The file the server reads at `installPath` for a request for `uri`.
    public func file(_ installPath: String, uri: String) -> PageFile {
        let key = Key(installPath: installPath, uri: uri)
        if let found = known.withLock({ $0[key] }) { return found }
        let local = PagePathMap.apply(maps, to: installPath)
        let file = PageFile(uri: uri, installPath: installPath, localPath: local, exists: FileManager.default.fileExists(atPath: local))
        known.withLock { $0[key] = file }
        return file
    }
}
