import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// One request to a server in the sandbox, as a visitor sends it, and the answer as it came:
/// the status, the headers detour looks at and the body's bytes.
public struct HTTPProbe: Sendable {
    public struct Answer: Sendable {
        /// 0 when no HTTP answer came (refused, reset, timed out).
        public var status = 0
        public var headers: [(name: String, value: String)] = []
        public var body: [UInt8] = []

        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    public var port: Int
    public var host: String
    public var method: String
    public var path: String
    /// A form's body, for POST.
    public var body: String?
    /// Whether it is sent over TLS (the server's certificate is not checked: the sandbox made it).
    public var tls: Bool
    /// The client address declared first in a PROXY protocol (v1) header, before TLS.
    public var clientAddress: String?
    /// Headers sent beside the fixed ones.
    public var headers: [(name: String, value: String)] = []

    public init(
        port: Int, host: String, method: String = "GET", path: String, body: String? = nil, tls: Bool = false, clientAddress: String? = nil
    ) {
        self.port = port
        self.host = host
        self.method = method
        self.path = path
        self.body = body
        self.tls = tls
        self.clientAddress = clientAddress
    }

    /// One context for every TLS probe: it trusts any certificate.
    private static let tlsContext: NIOSSLContext? = {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        return try? NIOSSLContext(configuration: configuration)
    }()

    /// Sends the request with `Connection: close` and reads until the server closes or
    /// `seconds` pass.
    public func send(seconds: Double) async -> Answer {
        let form = body.map { "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \($0.utf8.count)\r\n" } ?? ""
        let extra = headers.map { "\($0.name): \($0.value)\r\n" }.joined()
        let request =
            "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: detour-verify\r\nAccept: */*\r\n\(extra)\(form)Connection: close\r\n\r\n\(body ?? "")"
        let collector = Collector()
        // The name is sent as SNI (a name, not an address, as TLS asks), so that a listener
        // choosing its certificate or backend by SNI chooses as it does for visitors.
        let isAddress = host.hasPrefix("[") || host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" }
        let serverName = isAddress ? nil : host.split(separator: ":").first.map(String.init)
        let tlsContext = tls ? Self.tlsContext : nil
        if tls, tlsContext == nil { return Answer() }
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(5))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tlsContext, clientAddress == nil {
                            try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tlsContext, serverHostname: serverName))
                        }
                        try channel.pipeline.syncOperations.addHandler(collector)
                    }
                }
                .connect(host: "127.0.0.1", port: port).get()
            let deadline = channel.eventLoop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) { channel.close(promise: nil) }
            if let clientAddress {
                // The PROXY header goes first, in the clear; TLS, if any, starts after it.
                let family = clientAddress.contains(":") ? "TCP6" : "TCP4"
                let local = clientAddress.contains(":") ? "::1" : "127.0.0.1"
                try await channel.writeAndFlush(ByteBuffer(string: "PROXY \(family) \(clientAddress) \(local) 40000 \(port)\r\n"))
                if let tlsContext {
                    let handler = try NIOSSLClientHandler(context: tlsContext, serverHostname: serverName)
                    try await channel.pipeline.addHandler(handler, position: .first)
                }
            }
            try await channel.writeAndFlush(ByteBuffer(string: request))
            try? await channel.closeFuture.get()
            deadline.cancel()
        } catch {
            return Answer()
        }
        return Self.parse(collector.received.withLock { $0 })
    }

    /// The status line, headers and body of a whole HTTP/1.1 answer (chunked bodies joined).
    static func parse(_ bytes: [UInt8]) -> Answer {
        var answer = Answer()
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.firstRange(of: separator) else { return answer }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        guard let statusLine = head.first, let status = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return answer }
        answer.status = status
        answer.headers = head.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let body = Array(bytes[end.upperBound...])
        answer.body = answer.header("Transfer-Encoding")?.lowercased() == "chunked" ? Self.unchunked(body) : body
        return answer
    }

    private static func unchunked(_ body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var at = 0
        while at < body.count, let lineEnd = body[at...].firstRange(of: Array("\r\n".utf8)) {
            let sizeText = String(decoding: body[at..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            out += body[start..<min(start + size, body.count)]
            at = start + size + 2
        }
        return out
    }

    /// Keeps every byte that arrives.
    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let received = Mutex<[UInt8]>([])

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            received.withLock { $0 += bytes }
        }
    }
}
