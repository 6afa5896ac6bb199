import NIOCore

/// The application protocols a server speaks to an upstream besides HTTP (nginx's
/// `fastcgi_pass`, `uwsgi_pass`, `scgi_pass`, Caddy's `php_fastcgi`, Apache's `fcgi://`): how
/// the fake upstream reads a request in each (to its end, and the probe's URI in it) and writes
/// its answer, so that an application behind one fails the same ways as one behind HTTP.
public enum FakeGateway: String, Sendable, CaseIterable {
    case fastcgi, uwsgi, scgi

    /// What a request read so far holds: nothing complete yet, or its URI.
    enum Reading: Equatable {
        case incomplete
        case complete(uri: String)
    }

    /// Reads `bytes` (everything the connection has sent) as one request.
    func read(_ bytes: [UInt8]) -> Reading {
        switch self {
        case .fastcgi: Self.readFastCGI(bytes)
        case .uwsgi: Self.readUWSGI(bytes)
        case .scgi: Self.readSCGI(bytes)
        }
    }

    /// The answer with `status` and `body`; `complete: false` promises more body than it
    /// holds and leaves the end out (the connection closes after it).
    func answer(status: Int, body: String, complete: Bool = true, malformed: Bool = false) -> [UInt8] {
        let length = complete ? body.utf8.count : 100_000
        // A header line without a colon, which no server reads (`FakeUpstream.Mode.malformed`).
        let bad = malformed ? "a header line without a colon\r\n" : ""
        switch self {
        case .fastcgi:
            // CGI's headers: the status goes in a `Status` header.
            let output = Array("Status: \(status)\r\n\(bad)Content-Type: text/plain\r\nContent-Length: \(length)\r\n\r\n\(body)".utf8)
            var bytes = Self.fastCGIRecord(type: 6, output)
            guard complete else { return bytes }
            bytes += Self.fastCGIRecord(type: 6, [])
            // FCGI_END_REQUEST: application status 0, FCGI_REQUEST_COMPLETE.
            bytes += Self.fastCGIRecord(type: 3, [0, 0, 0, 0, 0, 0, 0, 0])
            return bytes
        case .uwsgi:
            // An application behind uWSGI writes an HTTP response.
            return Array("HTTP/1.1 \(status) Fake\r\n\(bad)Content-Type: text/plain\r\nContent-Length: \(length)\r\n\r\n\(body)".utf8)
        case .scgi:
            return Array("Status: \(status) Fake\r\n\(bad)Content-Type: text/plain\r\nContent-Length: \(length)\r\n\r\n\(body)".utf8)
        }
    }

    // MARK: FastCGI

    /// A record of request 1: version 1, type, id, content length, no padding.
    private static func fastCGIRecord(type: UInt8, _ content: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = content[...]
        repeat {
            let chunk = rest.prefix(65535)
            rest = rest.dropFirst(chunk.count)
            bytes += [1, type, 0, 1, UInt8(chunk.count >> 8), UInt8(chunk.count & 0xFF), 0, 0] + chunk
        } while !rest.isEmpty
        return bytes
    }

    /// Complete once the params and the standard input have both ended (an empty record each).
    private static func readFastCGI(_ bytes: [UInt8]) -> Reading {
        var at = 0
        var params: [UInt8] = []
        var paramsEnded = false
        var inputEnded = false
        while at + 8 <= bytes.count {
            let type = bytes[at + 1]
            let length = Int(bytes[at + 4]) << 8 | Int(bytes[at + 5])
            let end = at + 8 + length + Int(bytes[at + 6])
            guard end <= bytes.count else { break }
            let content = bytes[(at + 8)..<(at + 8 + length)]
            if type == 4 { if length == 0 { paramsEnded = true } else { params += content } }
            if type == 5, length == 0 { inputEnded = true }
            at = end
        }
        guard paramsEnded, inputEnded else { return .incomplete }
        let pairs = fastCGIPairs(params)
        return .complete(uri: pairs["REQUEST_URI"] ?? pairs["QUERY_STRING"].map { "?" + $0 } ?? "")
    }

    /// FastCGI's name-value pairs: each length one byte, or four with the high bit set.
    private static func fastCGIPairs(_ bytes: [UInt8]) -> [String: String] {
        var pairs: [String: String] = [:]
        var at = 0
        func length() -> Int? {
            guard at < bytes.count else { return nil }
            if bytes[at] < 0x80 {
                at += 1
                return Int(bytes[at - 1])
            }
            guard at + 4 <= bytes.count else { return nil }
            defer { at += 4 }
            return Int(bytes[at] & 0x7F) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        while let nameLength = length(), let valueLength = length(), at + nameLength + valueLength <= bytes.count {
            let name = String(decoding: bytes[at..<(at + nameLength)], as: UTF8.self)
            pairs[name] = String(decoding: bytes[(at + nameLength)..<(at + nameLength + valueLength)], as: UTF8.self)
            at += nameLength + valueLength
        }
        return pairs
    }

    // MARK: uwsgi

    /// A 4-byte header (modifier, vars' size little-endian, modifier), the vars (each name
    /// and value after a 2-byte little-endian length), then CONTENT_LENGTH bytes of body.
    private static func readUWSGI(_ bytes: [UInt8]) -> Reading {
        guard bytes.count >= 4 else { return .incomplete }
        let size = Int(bytes[1]) | Int(bytes[2]) << 8
        guard bytes.count >= 4 + size else { return .incomplete }
        var vars: [String: String] = [:]
        var at = 4
        func text() -> String? {
            guard at + 2 <= 4 + size else { return nil }
            let length = Int(bytes[at]) | Int(bytes[at + 1]) << 8
            guard at + 2 + length <= 4 + size else { return nil }
            defer { at += 2 + length }
            return String(decoding: bytes[(at + 2)..<(at + 2 + length)], as: UTF8.self)
        }
        while let name = text(), let value = text() { vars[name] = value }
        let body = Int(vars["CONTENT_LENGTH"] ?? "") ?? 0
        guard bytes.count >= 4 + size + body else { return .incomplete }
        return .complete(uri: vars["REQUEST_URI"] ?? "")
    }

    // MARK: SCGI

    /// A netstring of NUL-separated headers (`70:CONTENT_LENGTH\0…\0,`), then the body.
    private static func readSCGI(_ bytes: [UInt8]) -> Reading {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), let size = Int(String(decoding: bytes[..<colon], as: UTF8.self)) else {
            return .incomplete
        }
        let start = colon + 1
        guard bytes.count >= start + size + 1 else { return .incomplete }
        let fields = bytes[start..<(start + size)].split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var headers: [String: String] = [:]
        for index in stride(from: 0, to: fields.count - 1, by: 2) { headers[fields[index]] = fields[index + 1] }
        let body = Int(headers["CONTENT_LENGTH"] ?? "") ?? 0
        guard bytes.count >= start + size + 1 + body else { return .incomplete }
        return .complete(uri: headers["REQUEST_URI"] ?? "")
    }
}

/// Reads one request of a gateway protocol from a connection and answers it as the fake
/// upstream's mode says, through `respond`.
final class FakeGatewayHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let gateway: FakeGateway
    /// Told the request's URI once it is complete; gives the bytes to send before closing
    /// (nil: say nothing, and let the server's timeout end it).
    private let answer: @Sendable (String) -> [UInt8]?
    /// Touched only on the channel's event loop.
    private var received: [UInt8] = []
    private var answered = false

    init(gateway: FakeGateway, answer: @escaping @Sendable (String) -> [UInt8]?) {
        self.gateway = gateway
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        received += buffer.readBytes(length: buffer.readableBytes) ?? []
        guard !answered, case .complete(let uri) = gateway.read(received) else { return }
        answered = true
        guard let bytes = answer(uri) else { return }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes))).whenComplete { _ in channel.close(promise: nil) }
    }
}
