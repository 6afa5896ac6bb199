import Foundation

/// A unix socket's address, for the fakes that listen on one and the clients that talk to a
/// server's (HAProxy's stats socket).
public enum UnixSocketAddress {
    /// `body` given `path` as a `sockaddr_un` (cut to the 107 bytes it holds) and its length.
    public static func with(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Sends `text` to the socket at `path` and reads until the server closes; nil when nothing
    /// listens there.
    public static func exchange(_ path: String, _ text: String) -> String? {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        guard with(path, { connect(descriptor, $0, $1) }) == 0, LoopbackPort.send(text, on: descriptor) else { return nil }
        return LoopbackPort.receiveAll(descriptor)
    }
}
