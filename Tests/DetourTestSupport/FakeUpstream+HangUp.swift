import Foundation
import Glibc

/// Connections that end when the test says (`.drains`, `.keepsAlive`, `.silent`), so a
/// reproduction can place the hang-up at a moment of its choosing: once the proxy waits, or
/// while it is stopped.
extension FakeUpstream {
    /// Reads `connection` until the proxy closes it or `hangUp` takes it over, answering each
    /// request `200 OK` for `.keepsAlive` (requests whose bodies hold no blank line).
    func hold(_ connection: Int32, answering: Bool) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var pending: [UInt8] = []
        let headersEnd: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 20)
            lock.lock()
            if hangingUp.contains(connection) {
                letGo.insert(connection)
                lock.unlock()
                return
            }
            guard open.contains(connection) else {
                lock.unlock()
                return
            }
            let received = recv(connection, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if received > 0 { receivedBytes += received }
            lock.unlock()
            if received == 0 {
                finish(connection)
                return
            }
            guard received > 0, answering else { continue }
            pending += buffer.prefix(received)
            while let end = pending.firstRange(of: headersEnd) {
                pending.removeSubrange(..<end.upperBound)
                _ = write(Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok".utf8), to: connection)
            }
        }
    }

    /// Ends every connection open now, with a FIN (after reading what is left unread, which
    /// would turn it into a reset) or, with `reset`, a TCP RST with nothing read first: a read
    /// would make room, and a proxy waiting for room would be writing again when the reset
    /// comes. Connections the proxy opens later are held as before. Returns once the FINs or
    /// RSTs are sent.
    public func hangUp(reset: Bool) {
        lock.lock()
        let ending = Set(open)
        hangingUp = ending
        lock.unlock()
        // The reading threads let go first: a socket another thread polls is not closed until
        // that poll returns.
        let deadline = Date().addingTimeInterval(2)
        while isHeld, Date() < deadline {
            lock.lock()
            let waiting = ending.subtracting(letGo).intersection(open)
            lock.unlock()
            if waiting.isEmpty { break }
            usleep(2_000)
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        for connection in ending {
            lock.lock()
            if !reset, open.contains(connection) { while recv(connection, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {} }
            lock.unlock()
            finish(connection, reset: reset)
        }
        lock.lock()
        hangingUp = []
        letGo = []
        lock.unlock()
    }

    /// Whether a thread reads each connection (`.drains`, `.keepsAlive`).
    private var isHeld: Bool {
        switch behaviour {
        case .drains, .keepsAlive: true
        default: false
        }
    }

    /// Waits until what the proxy sent and nobody read stops growing for 0.2 s (at most
    /// `seconds`): with `.silent`, a proxy whose writes wait for room.
    public func waitUntilProxyWaits(seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var last = -1
        var steadySince = Date()
        while Date() < deadline {
            lock.lock()
            let queued = open.reduce(0) { total, connection in
                var bytes: Int32 = 0
                _ = ioctl(connection, UInt(FIONREAD), &bytes)
                return total + Int(bytes)
            }
            lock.unlock()
            if queued != last || queued == 0 {
                last = queued
                steadySince = Date()
            } else if Date().timeIntervalSince(steadySince) >= 0.2 {
                return true
            }
            usleep(20_000)
        }
        return false
    }

    /// Waits until the proxy has sent at least `bytes` bytes (at most `seconds`).
    public func waitUntilReceived(_ bytes: Int, seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            lock.lock()
            let received = receivedBytes
            lock.unlock()
            if received >= bytes { return true }
            usleep(5_000)
        }
        return false
    }
}
