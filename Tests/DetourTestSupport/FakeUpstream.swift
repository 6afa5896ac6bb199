import Foundation
import Glibc

/// A misbehaving HTTP upstream on 127.0.0.1, for reproducing what a proxy logs and answers
/// when its backend fails. It serves one behaviour on every connection until stopped.
public final class FakeUpstream: @unchecked Sendable {
    public enum Behaviour: Sendable {
        /// Reads the request and never answers.
        case silent
        /// Reads the request and closes the connection without a byte.
        case closes
        /// Answers a status line and then says nothing: headers that never end.
        case stallsInHeaders
        /// Answers with a header block of `bytes` bytes.
        case hugeHeader(bytes: Int)
        /// Reads the request and resets the connection (a TCP RST, as a crashed worker leaves).
        case resets
        /// Answers with bytes that are not HTTP (an SSH banner: another service on the port).
        case notHTTP
        /// Answers a status line without its code (`HTTP/1.1 OK`), as a hand-written server may.
        case malformedStatus
        /// Answers `200 OK` over HTTP/1.1 and closes.
        case answers
        /// Answers `200 OK` with a `Content-Length` of 100,000 bytes, sends 1,000 and closes: a
        /// response cut short (a worker that died while writing it).
        case truncates
        /// Answers `200 OK` with a `Content-Length` of 100,000 bytes, sends 1,000 and resets the
        /// connection (a TCP RST): a worker killed while it wrote.
        case resetsMidBody
        /// Answers `200 OK` with a `Content-Length` of 100,000 bytes, sends 1,000 and then says
        /// nothing: a worker stuck while it wrote.
        case stallsMidBody
        /// Answers `200 OK` with a chunked body whose first chunk's size is not hex (`zz`), and
        /// closes: a hand-written or broken chunked encoder.
        case invalidChunk
        /// Answers `200 OK` with a header whose name holds a space (`X Bad: y`).
        case invalidHeader
        /// Switches to WebSocket (`101`) and then says nothing.
        case upgrades
        /// Answers `200 OK` with a `Content-Length` of 100 MB and sends it slowly (100 kB every
        /// 50 ms) until the proxy stops reading: a large download a visitor may leave.
        case streams
        /// Answers by the request's path, for the runtime oracle: a path ending `/sNNN` gets status
        /// NNN with the body `app-body-NNN`, `/close` a closed connection, `/hang` silence, any
        /// other `200 app-ok`.
        case byPath
        /// Reads the request and answers `parts`, a pause of 0.3 s between two, then ends as
        /// told: a peer that breaks its protocol's framing in a way a test writes byte for byte
        /// (HTTP/2 frames to `grpc_pass`, FastCGI records to `fastcgi_pass`, a chunked body).
        case sends([[UInt8]], then: Ending)
        /// Reads all the proxy sends and never answers, until `hangUp`: an application that
        /// takes an upload in and then gives up on it.
        case drains
        /// Answers every request `200 OK` and keeps the connection for the next, until
        /// `hangUp`: an application that closes the connections it keeps alive once idle.
        case keepsAlive
        /// Never accepts, and its queue of pending connections is full: a connect to it hangs
        /// (TCP, as behind a firewall that drops packets) or fails at once with EAGAIN (unix).
        case neverAccepts
    }

    /// What `.sends` does after its last part.
    public enum Ending: Sendable {
        /// Says nothing until the proxy closes.
        case staysOpen
        /// Closes the connection (a FIN).
        case closes
        /// Resets the connection (a TCP RST).
        case resets
    }

    public let port: Int
    private let listener: Int32
    let behaviour: Behaviour
    var open: [Int32] = []
    /// The connections `hangUp` is ending, and those of them whose reading thread let go.
    var hangingUp = Set<Int32>()
    var letGo = Set<Int32>()
    /// How many bytes the proxy sent, over every connection.
    var receivedBytes = 0
    /// The `probe=` values of the requests `.byPath` was asked for.
    private var markers = Set<String>()
    let lock = NSLock()

    /// Closes `connection` with a TCP RST instead of a FIN.
    private static func reset(_ connection: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(connection)
    }

    private static func send(_ text: String, on connection: Int32) {
        _ = text.withCString { Glibc.send(connection, $0, Int(strlen($0)), Int32(MSG_NOSIGNAL)) }
    }

    public init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, Self.backlog(behaviour)) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))
        self.port = port
        start {
            socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        } connect: { descriptor in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
    }

    /// A listener that never accepts gets the smallest queue (the kernel keeps one pending
    /// connection for a backlog of 0).
    private static func backlog(_ behaviour: Behaviour) -> Int32 {
        if case .neverAccepts = behaviour { 0 } else { 256 }
    }

    /// Serves connections, or for `.neverAccepts` fills the queue with connections of our own
    /// that are never accepted, so the proxy's connect is the one that cannot get in.
    private func start(socket makeSocket: () -> Int32, connect: (Int32) -> Int32) {
        guard case .neverAccepts = behaviour else {
            Thread.detachNewThread { [self] in serve() }
            return
        }
        for _ in 0..<3 {
            let filler = makeSocket()
            _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL) | O_NONBLOCK)
            _ = connect(filler)
            lock.lock()
            open.append(filler)
            lock.unlock()
        }
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            if case .byPath = behaviour {
                // Many probes at once: each connection is answered on its own thread, and only
                // one kept open is closed again at stop (a closed number may be reused).
                Thread.detachNewThread { [self] in answerByPath(connection) }
                continue
            }
            lock.lock()
            open.append(connection)
            lock.unlock()
            switch behaviour {
            case .drains:
                Thread.detachNewThread { [self] in hold(connection, answering: false) }
                continue
            case .keepsAlive:
                Thread.detachNewThread { [self] in hold(connection, answering: true) }
                continue
            default: break
            }
            var buffer = [UInt8](repeating: 0, count: 8192)
            let received = recv(connection, &buffer, buffer.count, 0)
            lock.lock()
            receivedBytes += max(received, 0)
            lock.unlock()
            switch behaviour {
            case .silent: continue
            case .stallsMidBody:
                Self.send("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n" + String(repeating: "x", count: 1000), on: connection)
            case .stallsInHeaders: Self.send("HTTP/1.1 200 OK\r\n", on: connection)
            case .closes: finish(connection)
            case .resets:
                finish(connection, reset: true)
            case .resetsMidBody:
                Self.send("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n" + String(repeating: "x", count: 1000), on: connection)
                usleep(100_000)
                finish(connection, reset: true)
            case .invalidChunk:
                Self.send("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", on: connection)
                finish(connection)
            case .invalidHeader:
                Self.send("HTTP/1.1 200 OK\r\nX Bad: y\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok", on: connection)
                finish(connection)
            case .hugeHeader(let bytes):
                Self.send("HTTP/1.1 200 OK\r\nX-Padding: \(String(repeating: "x", count: bytes))\r\nContent-Length: 0\r\n\r\n", on: connection)
                finish(connection)
            case .notHTTP:
                Self.send("SSH-2.0-OpenSSH_9.2p1\r\n", on: connection)
                finish(connection)
            case .malformedStatus:
                Self.send("HTTP/1.1 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok", on: connection)
                finish(connection)
            case .answers:
                Self.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok", on: connection)
                finish(connection)
            case .truncates:
                Self.send("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n" + String(repeating: "x", count: 1000), on: connection)
                finish(connection)
            case .upgrades:
                Self.send("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", on: connection)
            case .streams:
                Thread.detachNewThread { Self.stream(on: connection) }
            case .sends(let parts, let ending):
                Thread.detachNewThread { [self] in send(parts, on: connection, then: ending) }
            case .neverAccepts, .byPath, .drains, .keepsAlive:
                return
            }
        }
    }

    /// `.streams`' answer, until a send fails (the proxy closed) or ten seconds pass.
    private static func stream(on connection: Int32) {
        send("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000000\r\n\r\n", on: connection)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 100_000)
        for _ in 0..<200 {
            guard chunk.withUnsafeBytes({ Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 else { return }
            usleep(50_000)
        }
    }

    /// `.sends`' answer: each part as written, the pauses between them letting the proxy read
    /// each on its own, as from a peer writing them at different times.
    private func send(_ parts: [[UInt8]], on connection: Int32, then ending: Ending) {
        Self.readUntilQuiet(connection)
        for (index, part) in parts.enumerated() {
            if index > 0 { usleep(300_000) }
            guard write(part, to: connection) else { return }
        }
        switch ending {
        case .staysOpen: return
        case .closes:
            usleep(100_000)
            finish(connection)
        case .resets:
            usleep(100_000)
            finish(connection, reset: true)
        }
    }

    /// Sends `bytes` whole, unless `stop` has closed the connection meanwhile: its number may then
    /// be another file's. Under the lock that `stop` takes, so never on a number it closed.
    func write(_ bytes: [UInt8], to connection: Int32) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard open.contains(connection) else { return false }
        return bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } == bytes.count
    }

    /// Closes `connection` (with a reset if asked) and forgets it, so that `stop` does not close
    /// its number again once another file of this process may have it.
    func finish(_ connection: Int32, reset: Bool = false) {
        lock.lock()
        let stillOpen = open.contains(connection)
        open.removeAll { $0 == connection }
        lock.unlock()
        guard stillOpen else { return }
        if reset { Self.reset(connection) } else { close(connection) }
    }

    /// Reads what the proxy sends until it has said nothing for 0.2 s (at most 2 s): the whole
    /// request, its body and (HTTP/2) its stream's end, so that an answer breaking the protocol
    /// finds the proxy done with the visitor's request on a loaded machine too.
    private static func readUntilQuiet(_ connection: Int32) {
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline, recv(connection, &buffer, buffer.count, 0) > 0 {}
    }

    /// Reads the request, records its probe mark, and answers as its path asks.
    private func answerByPath(_ connection: Int32) {
        var buffer = [UInt8](repeating: 0, count: 8192)
        let received = recv(connection, &buffer, buffer.count, 0)
        let request = String(decoding: buffer.prefix(max(received, 0)), as: UTF8.self)
        let target = request.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        if let start = target.range(of: "probe=") {
            lock.lock()
            markers.insert(String(target[start.upperBound...].prefix { $0 != "&" }))
            lock.unlock()
        }
        let last = target.split(separator: "?").first?.split(separator: "/").last.map(String.init) ?? ""
        guard last != "hang" else {
            lock.lock()
            open.append(connection)
            lock.unlock()
            return
        }
        Self.answer(last, on: connection)
    }

    /// `last`: the path's last part, `sNNN`, `close` or anything else.
    private static func answer(_ last: String, on connection: Int32) {
        if last == "close" {
            close(connection)
            return
        }
        let status = last.hasPrefix("s") ? Int(last.dropFirst()) ?? 200 : 200
        let body = status == 200 ? "app-ok" : "app-body-\(status)"
        send("HTTP/1.1 \(status) App\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)", on: connection)
        close(connection)
    }

    /// Listens on a unix socket at `path` instead, with the file mode `mode` (0o600: only its
    /// owner, root, may connect; nginx's workers run as nobody). `port` is 0.
    public init(_ behaviour: Behaviour, unixSocket path: String, mode: mode_t) throws {
        self.behaviour = behaviour
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        port = 0
        guard UnixSocketAddress.with(path, { bind(listener, $0, $1) }) == 0, chmod(path, mode) == 0, listen(listener, Self.backlog(behaviour)) == 0
        else { throw POSIXError(.EACCES) }
        start {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        } connect: { descriptor in
            UnixSocketAddress.with(path) { Glibc.connect(descriptor, $0, $1) }
        }
    }

    /// Whether a request with `probe=marker` in its query reached this upstream.
    public func wasAsked(for marker: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return markers.contains(marker)
    }

    /// Closes the listener and every connection still open.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        lock.lock()
        for connection in open { close(connection) }
        open = []
        lock.unlock()
    }
}
