import DetourProxyCore
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The upstream every rewritten `proxy_pass` and upstream server points at, on 127.0.0.1: one
/// behaviour at a time (`Mode`), switched between rounds of probes. Its own answers carry a
/// body no server writes (`detour-upstream-<status>`), so a probe knows whose body it got, and
/// it remembers the probe marks of the requests that reached it. It speaks HTTP on `port`, and
/// FastCGI, uwsgi and SCGI each on a port of its own (`gatewayPorts`), in the same mode.
/// An auth service (`admittingPort`) lets every request in, in every mode, so the routes behind
/// it meet the upstream's failures rather than the auth service's.
public final class FakeUpstream: Sendable {
    public enum Mode: Sendable, Equatable, CustomStringConvertible {
        /// Answers 200.
        case answers
        /// Nothing listens: connections are refused.
        case down
        /// Answers with this status and a body of its own.
        case status(Int)
        /// Reads the request and says nothing: the proxy's timeout ends it.
        case silent
        /// Promises a long body, sends a little of it and closes.
        case closesMidBody
        /// Answers with a header line no proxy can read (no colon): nginx, Caddy, HAProxy and
        /// Apache answer their own 502 (`MalformedResponder`).
        case malformed

        public var description: String {
            switch self {
            case .answers: "answering 200"
            case .down: "not listening"
            case .status(let status): "answering \(status)"
            case .silent: "slower than the timeout"
            case .closesMidBody: "closing mid-body"
            case .malformed: "sending a header no proxy can read"
            }
        }
    }

    /// What a body written by the fake upstream holds.
    public static let bodyMark = "detour-upstream-"

    private struct State {
        var mode = Mode.answers
        /// The listening channels, none while the mode is `down`.
        var channels: [any Channel] = []
        var marks = Set<String>()
    }

    /// The state the upstream and each connection's handler share.
    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    public let port: Int
    public let gatewayPorts: [FakeGateway: Int]
    /// Where the auth service listens: it answers 200, with no body, whatever the mode.
    public let admittingPort: Int
    private let admitting: any Channel
    private let shared = Shared()
    private let group: any EventLoopGroup

    public init() throws {
        group = MultiThreadedEventLoopGroup.singleton
        let channel = try Self.bind(port: 0, group: group, shared: shared)
        var channels = [channel]
        var gatewayPorts: [FakeGateway: Int] = [:]
        for gateway in FakeGateway.allCases {
            let listening = try Self.bind(gateway, port: 0, group: group, shared: shared)
            channels.append(listening)
            gatewayPorts[gateway] = listening.localAddress?.port ?? 0
        }
        port = channel.localAddress?.port ?? 0
        self.gatewayPorts = gatewayPorts
        admitting = try Self.bind(port: 0, group: group, shared: shared, admits: true)
        admittingPort = admitting.localAddress?.port ?? 0
        shared.state.withLock { $0.channels = channels }
    }

    /// Switches to `mode`: listening again, or no longer, as it asks.
    public func set(_ mode: Mode) throws {
        let open = shared.state.withLock { state -> [any Channel] in
            state.mode = mode
            defer { if mode == .down { state.channels = [] } }
            return state.channels
        }
        if mode == .down {
            for channel in open { try channel.close().wait() }
        } else if open.isEmpty {
            var channels = [try Self.bind(port: port, group: group, shared: shared)]
            for (gateway, port) in gatewayPorts { channels.append(try Self.bind(gateway, port: port, group: group, shared: shared)) }
            shared.state.withLock { $0.channels = channels }
        }
    }

    /// How a probe marks its request: `detour-probe=<mark>` in its query, or, where the
    /// server routes by the whole URL (`SandboxPlan.marksInHeader`), `SandboxPlan.markHeader`.
    public static let markParameter = "detour-probe="

    /// Whether a request marked `mark` reached it.
    public func wasAsked(_ mark: String) -> Bool { shared.state.withLock { $0.marks.contains(mark) } }

    public func stop() {
        let open = shared.state.withLock { state -> [any Channel] in
            defer { state.channels = [] }
            return state.channels
        }
        for channel in open + [admitting] { try? channel.close().wait() }
    }

    /// The probe's mark in a request's URI (`detour-probe=<mark>` in its query).
    private static func mark(in uri: String) -> String? {
        uri.split(separator: markParameter, maxSplits: 1).dropFirst().first.map { String($0.prefix { $0 != "&" }) }
    }

    /// The probe's mark in a request's head as it came: its URI's, else its header's.
    private static func mark(inHead head: String) -> String? {
        let lines = head.split(separator: "\r\n")
        if let first = lines.first, let mark = mark(in: String(first)) { return mark }
        let prefix = SandboxPlan.markHeader.lowercased() + ":"
        return lines.lazy.first { $0.lowercased().hasPrefix(prefix) }.map { $0.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces) }
    }

    /// A listener speaking `gateway`, answering from the same state as the HTTP one.
    private static func bind(_ gateway: FakeGateway, port: Int, group: any EventLoopGroup, shared: Shared) throws -> any Channel {
        try ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        FakeGatewayHandler(gateway: gateway) { uri in
                            let mark = Self.mark(in: uri)
                            let mode = shared.state.withLock { state in
                                if let mark { state.marks.insert(mark) }
                                return state.mode
                            }
                            switch mode {
                            case .silent, .down: return nil
                            case .answers: return gateway.answer(status: 200, body: Handler.body(200))
                            case .status(let status): return gateway.answer(status: status, body: Handler.body(status))
                            case .closesMidBody:
                                return gateway.answer(status: 200, body: Handler.body(200) + String(repeating: "x", count: 1000), complete: false)
                            case .malformed: return gateway.answer(status: 200, body: Handler.body(200), malformed: true)
                            }
                        })
                }
            }
            .bind(host: "127.0.0.1", port: port).wait()
    }

    private static func bind(port: Int, group: any EventLoopGroup, shared: Shared, admits: Bool = false) throws -> any Channel {
        try ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // Ahead of the HTTP handlers: a malformed answer is written as raw bytes.
                    if !admits { try channel.pipeline.syncOperations.addHandler(MalformedResponder(shared: shared)) }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(shared: shared, admits: admits))
                }
            }
            .bind(host: "127.0.0.1", port: port).wait()
    }

    /// In the `malformed` mode, answers a connection's first bytes with a response whose
    /// header line has no colon, before any HTTP handler sees them; in the others, passes them on.
    private final class MalformedResponder: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let shared: Shared

        init(shared: Shared) {
            self.shared = shared
        }

        static let response = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\na header line without a colon\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            let head = buffer.readString(length: min(buffer.readableBytes, 8192)) ?? ""
            let mark = FakeUpstream.mark(inHead: head)
            let malformed = shared.state.withLock { state in
                guard state.mode == .malformed else { return false }
                if let mark { state.marks.insert(mark) }
                return true
            }
            guard malformed else { return context.fireChannelRead(data) }
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: Self.response))).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    /// Answers each request as the mode of the moment says.
    private final class Handler: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let shared: Shared
        /// The auth service's: 200 to all, and no probe counted as reaching the upstream.
        private let admits: Bool

        init(shared: Shared, admits: Bool) {
            self.shared = shared
            self.admits = admits
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(let head) = unwrapInboundIn(data) else { return }
            if admits { return respond(context, status: 200, body: "") }
            let mark = FakeUpstream.mark(in: head.uri) ?? head.headers.first(name: SandboxPlan.markHeader)
            let mode = shared.state.withLock { state in
                if let mark { state.marks.insert(mark) }
                return state.mode
            }
            switch mode {
            case .silent, .down, .malformed:
                return
            case .answers:
                respond(context, status: 200, body: Self.body(200))
            case .status(let status):
                respond(context, status: status, body: Self.body(status))
            case .closesMidBody:
                var headers = HTTPHeaders([("Content-Type", "text/plain"), ("Content-Length", "100000")])
                headers.add(name: "Connection", value: "close")
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
                let part = Handler.body(200) + String(repeating: "x", count: 1000)
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: part))))).whenComplete { _ in channel.close(promise: nil) }
            }
        }

        static func body(_ status: Int) -> String { "\(FakeUpstream.bodyMark)\(status)\n" }

        private func respond(_ context: ChannelHandlerContext, status: Int, body: String) {
            let headers = HTTPHeaders([
                ("Content-Type", "text/plain"), ("Content-Length", String(body.utf8.count)), ("Connection", "close"),
            ])
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
