import CFileSystem
import DetourContent
import DetourDiagnostics
import DetourSupport
import Foundation

/// Writes a build into a staging folder beside the output and swaps it into place only when
/// the whole build succeeded, so a failed or killed build leaves the previous output as it was
/// (a proxy may be serving `public/errors` live).
struct OutputDirectory {
    let target: URL
    let staging: URL
    /// Placeholder files kept from the previous output (git keeps `public/` with one).
    static let carriedOver = [".gitkeep"]

    /// The output a build replaces, whose files an unchanged page is linked from; nil when
    /// there is none, and a first build's seventy thousand pages look for nothing there.
    private let previous: String?

    init(target: URL) {
        self.target = target.standardizedFileURL
        let parent = self.target.deletingLastPathComponent()
        staging = parent.appendingPathComponent(".\(self.target.lastPathComponent).detour-build-\(getpid())")
        var info = stat()
        previous = stat(self.target.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR ? self.target.path : nil
    }

    private var stagingPrefix: String { ".\(target.lastPathComponent).detour-build-" }

    /// Creates an empty staging folder, first removing any left by builds that were killed.
    func prepare() throws {
        let parent = target.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] where name.hasPrefix(stagingPrefix) {
            guard let pid = Int32(name.dropFirst(stagingPrefix.count)), pid == getpid() || kill(pid, 0) != 0 else { continue }
            Self.removeTree(parent.appendingPathComponent(name).path)
        }
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
    }

    /// Writes one file (the build sets umask 022 so it is world-readable). Plain system calls:
    /// the build writes ten thousand files and FileManager costs several times more per file.
    ///
    /// A page identical to the one in the current output is hard-linked instead: no new inode,
    /// no data written, a cheaper removal of the old tree, and an unchanged modification time
    /// for deploy tools that compare them.
    func write(_ relativePath: String, _ contents: String) throws {
        var contents = contents
        try contents.withUTF8 { try write(relativePath, bytes: $0) }
    }

    func write(_ relativePath: String, bytes: UnsafeBufferPointer<UInt8>) throws {
        let path = try stagedPath(relativePath)
        if let previous = previous.map({ $0 + "/" + relativePath }), Self.file(previous, equals: bytes), link(previous, path) == 0 { return }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileSystemError(path: path) }
        defer { close(descriptor) }
        try Self.write(bytes, to: descriptor, path: path)
    }

    /// Writes one file handed over in pieces, each written as it comes, so that a file of tens
    /// of megabytes is never held whole. Compared with the current output's as it goes: the
    /// same bytes are hard-linked in the end, as `write` does.
    func write(_ relativePath: String, pieces: ((String) throws -> Void) throws -> Void) throws {
        let path = try stagedPath(relativePath)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileSystemError(path: path) }
        defer { close(descriptor) }
        let previous = previous.map { $0 + "/" + relativePath }
        var comparison = FileComparison(path: previous)
        try pieces { piece in
            var piece = piece
            try piece.withUTF8 { bytes in
                comparison.compare(bytes)
                try Self.write(bytes, to: descriptor, path: path)
            }
        }
        // The same bytes: the previous file takes the written one's place.
        guard comparison.endsEqual(), let previous else { return }
        let linked = path + ".previous"
        if link(previous, linked) == 0, rename(linked, path) != 0 { unlink(linked) }
    }

    /// Where `relativePath` is staged, its folder made.
    private func stagedPath(_ relativePath: String) throws -> String {
        let path = staging.path + "/" + relativePath
        try Self.makeFolder(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]))
        return path
    }

    /// All of `bytes` to `descriptor`, the file at `path`.
    static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(path: path)
            }
            offset += written
        }
    }

    /// Whether the regular file at `path` holds exactly `bytes`. A symbolic link never counts,
    /// so none can be carried from the old output into the new one.
    private static func file(_ path: String, equals bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var comparison = FileComparison(path: path, size: bytes.count)
        comparison.compare(bytes)
        return comparison.endsEqual()
    }

    /// Replaces one file of the output itself, not the staging folder, by writing beside it and
    /// renaming over it: a reader sees the old file or the new one, never half of one. A file
    /// that already holds `contents` is left alone.
    func replaceInPlace(_ relativePath: String, _ contents: String) throws {
        let path = target.path + "/" + relativePath
        var contents = contents
        if contents.withUTF8({ Self.file(path, equals: $0) }) { return }
        let slash = path.lastIndex(of: "/")!
        try Self.makeFolder(String(path[..<slash]))
        let temporary = Self.temporaryPath(beside: path)
        do {
            try Data(contents.utf8).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw FileSystemError(path: temporary)
        }
        guard rename(temporary, path) == 0 else {
            let failure = FileSystemError(path: path)
            unlink(temporary)
            throw failure
        }
    }

    /// Where a file of the output is written before it is renamed over `path`: beside it, so
    /// the rename stays on one file system, hidden, and named for this process.
    static func temporaryPath(beside path: String) -> String {
        let slash = path.lastIndex(of: "/")!
        return String(path[...slash]) + ".detour-\(getpid())-" + path[path.index(after: slash)...]
    }

    /// `mkdir -p`.
    private static func makeFolder(_ path: String) throws {
        if mkdir(path, 0o755) == 0 { return }
        switch errno {
        case EEXIST:
            return
        case ENOENT:
            guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { throw FileSystemError(path: path) }
            try makeFolder(String(path[..<slash]))
            if mkdir(path, 0o755) != 0, errno != EEXIST { throw FileSystemError(path: path) }
        default:
            throw FileSystemError(path: path)
        }
    }

    /// Puts the staged build in place of the output in one atomic exchange where the kernel allows it.
    func commit() throws {
        let manager = FileManager.default
        guard manager.fileExists(atPath: target.path) else {
            try manager.moveItem(at: staging, to: target)
            return
        }
        for name in Self.carriedOver {
            let old = target.appendingPathComponent(name)
            if manager.fileExists(atPath: old.path) { try? manager.copyItem(at: old, to: staging.appendingPathComponent(name)) }
        }
        if detour_exchange_paths(staging.path, target.path) == 0 {
            // The previous output now sits at the staging path.
            Self.removeTree(staging.path)
            return
        }
        // No RENAME_EXCHANGE on this file system: two renames, with a short window between them.
        let previous = staging.deletingLastPathComponent().appendingPathComponent(stagingPrefix + "old-\(getpid())")
        try manager.moveItem(at: target, to: previous)
        try manager.moveItem(at: staging, to: target)
        _ = detour_remove_tree(previous.path)
    }

    func discard() {
        Self.removeTree(staging.path)
    }

    /// Removes a tree with every core: its second-level folders (`articles/<slug>`) in
    /// parallel, then what is left. Unlinking ten thousand pages is kernel work worth sharing.
    static func removeTree(_ path: String) {
        let children = DirectoryWalker.folders(under: path, depth: 2).map { path + "/" + $0 }
        _ = children.concurrentMap { detour_remove_tree($0) }
        _ = detour_remove_tree(path)
    }
}

/// A failed system call on a path, described with the system's own words.
struct FileSystemError: LocalizedError {
    let path: String
    let code: Int32

    init(path: String, code: Int32 = errno) {
        self.path = path
        self.code = code
    }

    var errorDescription: String? { "\(path): \(String(cString: strerror(code)))" }
}
