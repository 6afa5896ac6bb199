import Foundation

/// A whole file read with open/fstat/read: Foundation's readers add stat, lseek and listxattr
/// calls per file, which add up over thousands of articles or included configuration files.
public enum FileBytes {
    /// An errno from opening or reading.
    public struct Failure: Error, Sendable {
        public let code: Int32
        public var reason: String { String(cString: strerror(code)) }
    }

    /// The file's bytes, and its device and inode (what makes two paths the same file).
    public struct Contents: Sendable {
        public var bytes: [UInt8]
        public var identity: String
    }

    /// `limit`: files larger than this many bytes fail with EFBIG, unread.
    public static func read(_ path: String, limit: Int = Int(Int32.max)) -> Result<Contents, Failure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(Failure(code: errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(Failure(code: errno)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .failure(Failure(code: EISDIR)) }
        guard info.st_size <= limit else { return .failure(Failure(code: EFBIG)) }
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(info.st_size)) { buffer, filled in
            guard let count = fill(UnsafeMutableRawBufferPointer(buffer), from: descriptor) else {
                failure = errno
                return
            }
            filled = count
        }
        if let failure { return .failure(Failure(code: failure)) }
        return .success(Contents(bytes: bytes, identity: identity(info)))
    }

    /// Reads from `descriptor` until `buffer` is full or the file ends; the bytes read, or nil
    /// on an error (left in errno).
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer, from descriptor: Int32) -> Int? {
        var filled = 0
        while filled < buffer.count {
            let count = Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            if count < 0, errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    /// The identity of the file at `path`, or nil when there is none.
    public static func identity(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return identity(info)
    }

    private static func identity(_ info: stat) -> String { "\(info.st_dev):\(info.st_ino)" }
}
