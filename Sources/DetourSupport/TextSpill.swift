import Foundation
import Synchronization

/// Bytes written to a temporary file that has no name (gone when the process ends) and read
/// back when wanted: what a large build needs only now and then (the search index's text of
/// every article, the scores its languages share) need not stay in memory meanwhile. The page
/// cache keeps it close at hand.
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
    public func write(_ bytes: [UInt8]) -> Reference? { write(values: bytes) }

    /// The bytes one write left, or nil when they cannot be read back.
    public func read(_ reference: Reference) -> [UInt8]? { read(reference, as: UInt8.self) }

    /// Writes `values`' bytes (from any thread), or nil when the file system refused them.
    public func write<Value: BitwiseCopyable>(values: [Value]) -> Reference? {
        let count = values.count * MemoryLayout<Value>.stride
        let offset = end.add(count, ordering: .relaxed).oldValue
        let written = values.withUnsafeBytes { buffer -> Bool in
            var done = 0
            while done < buffer.count {
                let count = pwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return false }
                done += count
            }
            return true
        }
        return written ? Reference(offset: offset, count: count) : nil
    }

    /// The values one `write(values:)` of `Value`s left, or nil when they cannot be read back.
    public func read<Value: BitwiseCopyable>(_ reference: Reference, as type: Value.Type) -> [Value]? {
        let stride = MemoryLayout<Value>.stride
        var failed = false
        let values = [Value](unsafeUninitializedCapacity: reference.count / stride) { buffer, initialized in
            let bytes = UnsafeMutableRawBufferPointer(buffer)
            var filled = 0
            while filled < reference.count {
                let count = pread(descriptor, bytes.baseAddress! + filled, reference.count - filled, off_t(reference.offset + filled))
                if count < 0, errno == EINTR { continue }
                if count <= 0 {
                    failed = true
                    return
                }
                filled += count
            }
            initialized = reference.count / stride
        }
        return failed ? nil : values
    }
}
