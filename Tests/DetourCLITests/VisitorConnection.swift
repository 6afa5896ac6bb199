import DetourTestSupport
import Foundation
import Glibc

/// A visitor's own connection to a server on 127.0.0.1, for what curl cannot time: a request
/// whose parts leave at moments a reproduction chooses, or a second request on a connection
/// kept alive.
final class VisitorConnection {
    private var socket: Int32
    private var unread: [UInt8] = []

    init(port: Int) throws {
        guard let socket = LoopbackPort.connection(to: port) else { throw ReproductionError(message: "cannot connect to 127.0.0.1:\(port)") }
        self.socket = socket
    }

    deinit { if socket >= 0 { close(socket) } }

    /// Leaves, the answer unread: a FIN, or with `reset` a TCP RST (a browser closed, or its
    /// network gone). The connection takes no more requests.
    func leave(reset: Bool) {
        if reset {
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
        close(socket)
        socket = -1
    }

    /// Sends `text` whole (false when the server closed meanwhile).
    @discardableResult
    func send(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            bytes = bytes.dropFirst(sent)
        }
        return true
    }

    /// The status of the next response, whose body is read too (by its `Content-Length` or to its
    /// last chunk) so the connection can carry another request; 0 when the server closes first
    /// or says nothing for `seconds`.
    func status(seconds: Double = 8) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        let blankLine = Array("\r\n\r\n".utf8)
        while unread.firstRange(of: blankLine) == nil {
            guard readMore(until: deadline) else { return 0 }
        }
        let end = unread.firstRange(of: blankLine)!.upperBound
        let head = String(decoding: unread[..<end], as: UTF8.self).lowercased()
        unread.removeSubrange(..<end)
        let fields = head.split(separator: "\r\n")
        let status = fields.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        if let length = fields.first(where: { $0.hasPrefix("content-length:") }).flatMap({ Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) }) {
            while unread.count < length, readMore(until: deadline) {}
            unread.removeFirst(min(length, unread.count))
        } else if fields.contains("transfer-encoding: chunked") {
            let lastChunk = Array("0\r\n\r\n".utf8)
            while unread.firstRange(of: lastChunk) == nil, readMore(until: deadline) {}
            unread.removeSubrange(..<(unread.firstRange(of: lastChunk)?.upperBound ?? unread.endIndex))
        }
        return status
    }

    /// Reads what has arrived, waiting until `deadline`; false when nothing more will come.
    private func readMore(until deadline: Date) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let received = recv(socket, &buffer, buffer.count, 0)
        guard received > 0 else { return false }
        unread += buffer.prefix(received)
        return true
    }
}
