import Foundation
import Synchronization

/// Free TCP ports on 127.0.0.1 for the servers the tests start.
public enum LoopbackPort {
    /// A port below the kernel's ephemeral range that nothing holds now and this process has not
    /// handed out before. Never an ephemeral one: a test's own outgoing connection may take that
    /// as its source port before the server binds it, and a poll of it may connect to itself
    /// (TCP's simultaneous open), see it "open" and make the server's bind fail.
    public static func free() -> Int {
        while true {
            let port = Int.random(in: range)
            guard handedOut.withLock({ $0.insert(port).inserted }), canBind(port) else { continue }
            return port
        }
    }

    private static let handedOut = Mutex<Set<Int>>([])

    /// The ports below the ephemeral range, or this process's slice of them when
    /// `DETOUR_TEST_PORT_SLICE=k/n` says it is the k-th of n test processes running at once
    /// (scripts/test-suite.sh): each process only knows the ports it handed out itself, so two
    /// sharing the range could both find a port free, and one's server would answer the
    /// other's requests, or one's "refused" upstream would be the other's listening server.
    private static let range: Range<Int> = {
        let whole = 10_000..<max(ephemeralStart, 20_000)
        let slice = (ProcessInfo.processInfo.environment["DETOUR_TEST_PORT_SLICE"] ?? "").split(separator: "/").compactMap { Int($0) }
        guard slice.count == 2, slice[1] > 0, (1...slice[1]).contains(slice[0]) else { return whole }
        let width = whole.count / slice[1]
        let start = whole.lowerBound + (slice[0] - 1) * width
        return start..<(slice[0] == slice[1] ? whole.upperBound : start + width)
    }()

    /// The first port the kernel picks for outgoing connections (`ip_local_port_range`).
    private static let ephemeralStart: Int = {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32768
    }()

    private static func canBind(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        return withLoopback(port) { bind(descriptor, $0, $1) } == 0
    }

    /// Calls `body` with 127.0.0.1:`port` as a socket address and its length.
    private static func withLoopback(_ port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// True once something accepts connections on the port.
    public static func isOpen(_ port: Int) -> Bool {
        guard let descriptor = connection(to: port) else { return false }
        close(descriptor)
        return true
    }

    /// Sends `request` as it is and reads until the server closes: what it sent, byte for byte,
    /// where an HTTP client would act on the response (a Basic challenge) or refuse it.
    public static func exchange(_ port: Int, _ request: String, timeout: Int = 10) -> String? {
        guard let descriptor = connection(to: port, timeout: timeout) else { return nil }
        defer { close(descriptor) }
        guard send(request, on: descriptor) else { return nil }
        return receiveAll(descriptor)
    }

    /// An open connection to the port, whose reads give up after `timeout` seconds; the
    /// caller closes it.
    public static func connection(to port: Int, timeout: Int = 10) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard withLoopback(port, { connect(descriptor, $0, $1) }) == 0 else {
            close(descriptor)
            return nil
        }
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    /// Whether all of `request` was sent.
    public static func send(_ request: String, on descriptor: Int32) -> Bool {
        let bytes = Array(request.utf8)
        return Glibc.send(descriptor, bytes, bytes.count, 0) == bytes.count
    }

    /// Everything the server sends until it closes (or the read times out).
    public static func receiveAll(_ descriptor: Int32) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// `while`: false once waiting is pointless (the server that would open it has exited).
    public static func waitUntilOpen(_ port: Int, timeout: TimeInterval = 10, while alive: () -> Bool = { true }) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if isOpen(port) { return true }
            guard alive() else { return isOpen(port) }
            usleep(20_000)
        }
        return false
    }
}
