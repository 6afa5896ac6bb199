import Foundation
import Synchronization

/// Bytes written to a temporary file that has no name (gone when the process ends) and read
/// back when wanted: what a large build needs only now and then (the search index's text of
/// every article) need not stay in memory meanwhile. The page cache keeps it close at hand.
public final class TextSpill: Sendable {
    /// Where one write's bytes are.
    public struct Reference: Sendable {
        fileprivate let offset: Int
        fileprivate let count: Int
    }

    private let descriptor: Int32
    private let end = Atomic<Int>(0)

    /// A spill in the temporary folder (`TMPDIR`), or nil when none can be made there.
    public init?(folder: String = FileManager.default.temporaryDirectory.path) {
        // Named only between these lines: unlinked at once, it goes with the process.
        var template = Array((folder + "/.detour-spill-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Writes `bytes` (from any thread), or nil when the file system refused them (full).
    public func write(_ bytes: [UInt8]) -> Reference? {
        let offset = end.add(bytes.count, ordering: .relaxed).oldValue
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var done = 0
            while done < buffer.count {
                let count = pwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return false }
                done += count
            }
            return true
        }
        return written ? Reference(offset: offset, count: bytes.count) : nil
    }

    /// The bytes one write left, or nil when they cannot be read back.
    public func read(_ reference: Reference) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: reference.count) { buffer, filled in
            while filled < reference.count {
                let count = pread(descriptor, buffer.baseAddress! + filled, reference.count - filled, off_t(reference.offset + filled))
                if count < 0, errno == EINTR { continue }
                if count <= 0 {
                    failed = true
                    return
                }
                filled += count
            }
        }
        return failed ? nil : bytes
    }
}
