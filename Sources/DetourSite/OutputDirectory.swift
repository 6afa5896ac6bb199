import CAtomicRename
import DetourDiagnostics
import Foundation

/// Writes a build into a staging folder beside the output and swaps it into place only when
/// the whole build succeeded, so a failed or killed build leaves the previous output as it was
/// (a proxy may be serving `public/errors` live).
struct OutputDirectory {
    let target: URL
    let staging: URL
    /// Placeholder files kept from the previous output (git keeps `public/` with one).
    static let carriedOver = [".gitkeep"]

    init(target: URL) {
        self.target = target.standardizedFileURL
        let parent = self.target.deletingLastPathComponent()
        staging = parent.appendingPathComponent(".\(self.target.lastPathComponent).detour-build-\(getpid())")
    }

    private var stagingPrefix: String { ".\(target.lastPathComponent).detour-build-" }

    /// Creates an empty staging folder, first removing any left by builds that were killed.
    func prepare() throws {
        let parent = target.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] where name.hasPrefix(stagingPrefix) {
            guard let pid = Int32(name.dropFirst(stagingPrefix.count)), pid == getpid() || kill(pid, 0) != 0 else { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
    }

    /// Writes one file; folders and files are world-readable because nginx workers run as `nobody`.
    func write(_ relativePath: String, _ contents: String) throws {
        let url = staging.appendingPathComponent(relativePath)
        let folder = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        }
        guard FileManager.default.createFile(atPath: url.path, contents: Data(contents.utf8), attributes: [.posixPermissions: 0o644]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
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
            try? manager.removeItem(at: staging)
            return
        }
        // No RENAME_EXCHANGE on this file system: two renames, with a short window between them.
        let previous = staging.deletingLastPathComponent().appendingPathComponent(stagingPrefix + "old-\(getpid())")
        try manager.moveItem(at: target, to: previous)
        try manager.moveItem(at: staging, to: target)
        try? manager.removeItem(at: previous)
    }

    func discard() {
        try? FileManager.default.removeItem(at: staging)
    }
}
