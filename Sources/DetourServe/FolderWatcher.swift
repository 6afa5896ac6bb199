import Foundation
import Synchronization

/// Watches folder trees with inotify and reports changed files in batches: an editor's save
/// (write, rename, delete of a backup) or a `git checkout` of many files is one batch, reported
/// once the tree has been quiet for `quietPeriod`.
final class FolderWatcher: Sendable {
    private let descriptor: Int32
    /// Watch descriptor → folder path. Touched only by the watching thread after `init`, so
    /// the lock is never contended.
    private let folders = Mutex<[Int32: String]>([:])
    private let quietPeriod: Int32
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF)

    /// Folders that do not exist are skipped.
    init(_ roots: [String], quietMilliseconds: Int32 = 40) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        quietPeriod = quietMilliseconds
        for root in roots { watchTree(root) }
    }

    /// Calls `changed` with each batch of absolute paths, on a thread of its own, until the
    /// watch fails or the process ends. A batch holding `/` means events were lost: build all.
    func start(_ changed: @escaping @Sendable (Set<String>) -> Void) {
        let thread = Thread { [self] in
            while let batch = nextBatch() {
                if !batch.isEmpty { changed(batch) }
            }
        }
        thread.name = "detour-watch"
        thread.start()
    }

    private func watchTree(_ folder: String) {
        let watch = inotify_add_watch(descriptor, folder, Self.mask | UInt32(IN_ONLYDIR))
        guard watch >= 0 else { return }
        folders.withLock { $0[watch] = folder }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !Self.ignored(name) {
            var info = stat()
            let path = folder + "/" + name
            if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { watchTree(path) }
        }
    }

    /// Blocks until something changed, then gathers until the tree is quiet; nil when the
    /// watch itself fails, and watching ends.
    private func nextBatch() -> Set<String>? {
        var batch = Set<String>()
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&poller, 1, batch.isEmpty ? -1 : quietPeriod)
            if ready == 0 { return batch }
            if ready < 0 {
                if errno == EINTR { continue }
                return batch.isEmpty ? nil : batch
            }
            read(into: &batch)
        }
    }

    private func read(into batch: inout Set<String>) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let (watch, mask, length) = buffer.withUnsafeBytes { bytes in
                (
                    bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                    bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                    Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                )
            }
            let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
            offset += header + length
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                batch.insert("/")
                continue
            }
            guard let folder = folders.withLock({ $0[watch] }) else { continue }
            if mask & UInt32(IN_IGNORED) != 0 {
                folders.withLock { $0[watch] = nil }
                continue
            }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if name.isEmpty || Self.ignored(name) { continue }
            let path = folder + "/" + name
            if mask & UInt32(IN_ISDIR) != 0 {
                if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { watchTree(path) }
                // A folder of articles appeared or went: the whole content changed shape.
                batch.insert(path + "/")
                continue
            }
            batch.insert(path)
        }
    }

    /// Editors' swap, backup and probe files, and hidden files, which no build reads.
    static func ignored(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swx")
            || name.hasSuffix(".tmp") || name == "4913"
    }
}
