import NIOCore
import NIOHTTP1

/// One connection of the page service. Each request is answered on the event loop as soon as
/// its head and end are read (a request body means nothing to an error page), in order, as one
/// write: the status line, headers and page encoded together. Keep-alive is kept as the client
/// asks; a request the HTTP parser refuses (a head over 80 KB, bad syntax) gets a 400 and the
/// connection closes; after SIGTERM each connection closes once its answer is sent.
final class PageChannelHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private let responder: PageResponder
    private let negotiated: NegotiationCache
    private var head: HTTPRequestHead?
    private var quiescing = false

    init(responder: PageResponder, negotiated: NegotiationCache) {
        self.responder = responder
        self.negotiated = negotiated
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            let keepAlive = head.isKeepAlive && !quiescing
            let answer = responder.respond(to: head, negotiated: negotiated)
            var buffer = context.channel.allocator.buffer(capacity: answer.body.readableBytes + 256)
            answer.encode(into: &buffer, version: head.version, keepAlive: keepAlive, withBody: head.method != .HEAD)
            send(buffer, closing: !keepAlive, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, head == nil else { return context.close(promise: nil) }
        send(ByteBuffer(string: "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"), closing: true, context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        // Between requests the connection closes now; a request being read gets its answer first.
        quiescing = true
        if head == nil { context.close(promise: nil) }
    }

    private func send(_ buffer: ByteBuffer, closing: Bool, context: ChannelHandlerContext) {
        guard closing else { return context.writeAndFlush(wrapOutboundOut(buffer), promise: nil) }
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in loopBound.value.close(promise: nil) }
    }
}
