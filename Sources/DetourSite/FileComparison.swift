import DetourSupport
import Foundation

/// Whether a regular file holds the bytes a writer hands over piece by piece, read from it
/// as they come. A symbolic link never counts, as in `OutputDirectory.write`.
struct FileComparison: ~Copyable {
    private var descriptor: Int32
    private var buffer: [UInt8] = []

    /// `size`: the bytes' length when it is known at once, so a file of another length is not
    /// read. A nil path (no previous output) compares unequal, without looking.
    init(path: String?, size: Int? = nil) {
        descriptor = path.map { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) } ?? -1
        var info = stat()
        guard descriptor >= 0 else { return }
        if fstat(descriptor, &info) != 0 || (info.st_mode & S_IFMT) != S_IFREG || size.map({ $0 != Int(info.st_size) }) == true { stop() }
    }

    /// The file's next bytes are `bytes`, or the comparison is over.
    mutating func compare(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard descriptor >= 0, !bytes.isEmpty else { return }
        if buffer.count < bytes.count { buffer = [UInt8](repeating: 0, count: bytes.count) }
        let read = buffer.withUnsafeMutableBytes { FileBytes.fill(UnsafeMutableRawBufferPointer(rebasing: $0[..<bytes.count]), from: descriptor) }
        let same = read == bytes.count && buffer.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
        if !same { stop() }
    }

    /// Whether every piece was the same and the file has nothing more.
    mutating func endsEqual() -> Bool {
        guard descriptor >= 0 else { return false }
        var byte: UInt8 = 0
        let more = Glibc.read(descriptor, &byte, 1)
        stop()
        return more == 0
    }

    private mutating func stop() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    deinit { if descriptor >= 0 { close(descriptor) } }
}
