import Foundation
import Glibc

/// A DNS server on 127.0.0.1 (UDP) that knows no name: every query gets NXDOMAIN, as a
/// resolver answers for a name that does not exist in its view (a container name from another
/// network, a typo). For nginx's `resolver`.
public final class FakeResolver: @unchecked Sendable {
    public let port: Int
    private let descriptor: Int32

    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in answer() }
    }

    /// Sends each query back as its own answer: the header's flags say "response, recursion
    /// available, name error", the question stays, and there are no records.
    private func answer() {
        var packet = [UInt8](repeating: 0, count: 512)
        var client = sockaddr_storage()
        while true {
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let count = withUnsafeMutablePointer(to: &client) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor, &packet, packet.count, 0, $0, &length) }
            }
            guard count >= 12 else { return }
            packet[2] = 0x80 | (packet[2] & 0x01)
            packet[3] = 0x83
            _ = withUnsafePointer(to: &client) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(descriptor, packet, count, 0, $0, length) } }
        }
    }

    public func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}
