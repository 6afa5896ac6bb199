import NIOCore
import NIOHTTP1

/// What the page service sends back, and its bytes on the wire: the status line, the headers,
/// `Content-Length` and `Connection` as the connection needs them, then the page.
struct PageAnswer {
    var status: Int
    /// The answer's own headers; never a request's bytes, so they need no validation.
    var headers: [(name: String, value: String)]
    var body: ByteBuffer

    func encode(into buffer: inout ByteBuffer, version: HTTPVersion, keepAlive: Bool, withBody: Bool) {
        buffer.writeString("HTTP/\(version.major).\(version.minor) \(status) \(HTTPResponseStatus(statusCode: status).reasonPhrase)\r\n")
        for (name, value) in headers {
            buffer.writeString(name)
            buffer.writeStaticString(": ")
            buffer.writeString(value)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeString("Content-Length: \(body.readableBytes)\r\n")
        if !keepAlive {
            buffer.writeStaticString("Connection: close\r\n")
        } else if version == .http1_0 {
            buffer.writeStaticString("Connection: keep-alive\r\n")
        }
        buffer.writeStaticString("\r\n")
        if withBody { buffer.writeImmutableBuffer(body) }
    }
}
