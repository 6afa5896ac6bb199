import Foundation

/// The port to serve on, tried before the first build, which needs the preview's address for its
/// links: `--port 0` asks the kernel for a free one, and a port in use fails at once rather than
/// after a long build.
enum ListeningPort {
    static func check(_ port: Int, on address: String) throws -> Int {
        let family = address.contains(":") ? AF_INET6 : AF_INET
        let socket = Glibc.socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw PreviewServer.Failure.noFreePort(address) }
        defer { close(socket) }
        // As the server binds: a port left in TIME_WAIT by the last preview is free.
        var on: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = UInt16(port).bigEndian
            guard inet_pton(AF_INET6, address, &socketAddress.sin6_addr) == 1 else { throw PreviewServer.Failure.noFreePort(address) }
            return try bound(socket, &socketAddress, display: "\(address):\(port)")
        }
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = UInt16(port).bigEndian
        guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else { throw PreviewServer.Failure.noFreePort(address) }
        return try bound(socket, &socketAddress, display: "\(address):\(port)")
    }

    private static func bound<Address>(_ socket: Int32, _ address: inout Address, display: String) throws -> Int {
        let size = socklen_t(MemoryLayout<Address>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, size) == 0 }
        }
        guard ok else { throw PreviewServer.Failure.cannotListen(display, String(cString: strerror(errno))) }
        var found = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &found) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) == 0 }
        }
        guard named else { throw PreviewServer.Failure.noFreePort("the address") }
        // sin_port and sin6_port sit at the same offset, in network order.
        let port = withUnsafeBytes(of: &found) { UInt16(bigEndian: $0.loadUnaligned(fromByteOffset: 2, as: UInt16.self)) }
        return Int(port)
    }
}
