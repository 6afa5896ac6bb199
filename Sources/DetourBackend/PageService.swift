import Dispatch
import Foundation
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix

/// `detour backend`: the error pages of a built site as an HTTP service, for Kubernetes
/// ingress controllers (ingress-nginx's custom errors, Traefik's errors middleware) and any
/// proxy that forwards a failed request's status. Reads every page at start, then answers
/// from memory on NIO's event loops, one per core; on SIGTERM or SIGINT it stops accepting,
/// finishes the requests in flight and returns.
public struct PageService {
    public var publicFolder: URL
    public var bind: String
    public var port: Int
    public var logRequests: Bool

    public init(publicFolder: URL, bind: String, port: Int, logRequests: Bool) {
        self.publicFolder = publicFolder
        self.bind = bind
        self.port = port
        self.logRequests = logRequests
    }

    public func run() async throws {
        let pages = try BackendPages(public: publicFolder)
        let responder = PageResponder(pages: pages, metrics: BackendMetrics(), log: RequestLog(enabled: logRequests))
        let address = "\(bind.contains(":") ? "[\(bind)]" : bind):\(port)"
        let group = MultiThreadedEventLoopGroup.singleton
        let quiesce = ServerQuiescingHelper(group: group)
        // One memory of negotiations per event loop, used only on its loop: no lock per request.
        let caches = Dictionary(
            uniqueKeysWithValues: group.makeIterator().map { loop in
                (ObjectIdentifier(loop), NIOLoopBoundBox.makeBoxSendingValue(NegotiationCache(), eventLoop: loop))
            })
        // Caught before the port opens: a SIGTERM as soon as the service answers still stops it
        // cleanly (the helper closes the server once it is bound).
        let drained = group.next().makePromise(of: Void.self)
        let signals = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { quiesce.initiateShutdown(promise: drained) }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        let server: Channel
        do {
            server = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 1024)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .serverChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(quiesce.makeServerChannelHandler(channel: channel)) }
                }
                .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        // No pipelining handler, error handler or response encoder: each request is
                        // answered in order as it is read, and the answer is encoded by hand.
                        let operations = channel.pipeline.syncOperations
                        try operations.addHandler(BackPressureHandler())
                        try operations.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                        let negotiated = caches[ObjectIdentifier(channel.eventLoop)]?.value ?? NegotiationCache()
                        try operations.addHandler(PageChannelHandler(responder: responder, negotiated: negotiated))
                    }
                }
                .bind(host: bind, port: port).get()
        } catch let error as IOError {
            throw BackendPages.Failure(description: "cannot listen on \(address): \(String(cString: strerror(error.errnoCode)))")
        }
        FileHandle.standardError.write(
            Data("Serving \(pages.statuses.count) error pages in \(pages.languages.joined(separator: ", ")) at http://\(address)/\n".utf8))
        try await drained.futureResult.get()
        try? await server.closeFuture.get()
    }
}
