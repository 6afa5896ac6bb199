import DetourTestSupport

/// Upstreams that break their protocol's framing, written byte for byte: every way nginx's
/// `grpc_pass` refuses an HTTP/2 answer, and `fastcgi_pass` a FastCGI one. Before the
/// response's headers are complete the visitor gets 502; after them the status is already
/// sent (200) and nginx resets the stream or cuts the body.
extension LogReproduction {
    static let brokenProtocols: [LogReproduction] = grpcViolations.map(grpc) + fastCGIViolations.map(fastCGI) + httpViolations.map(http)

    /// What the upstream sends and what the visitor gets.
    private struct Violation {
        var name: String
        var status: Int
        var parts: [[UInt8]]
        init(_ name: String, _ status: Int, _ parts: [UInt8]...) {
            self.name = name
            self.status = status
            self.parts = parts
        }
    }

    private typealias H2 = HTTP2Frame

    /// HTTP/2 error code 2, INTERNAL_ERROR, as a RST_STREAM or GOAWAY payload ends with it.
    private static let internalError = H2.bigEndian(2)
    private static let answered = H2.headerBlock(H2.status200)
    private static let someData = H2.frame(H2.data, Array("x".utf8))

    /// `frame` 1,100 times: past the 1,000 PING or SETTINGS frames nginx answers before it
    /// calls them a flood.
    private static func flood(_ frame: [UInt8]) -> [UInt8] { Array(repeating: frame, count: 1100).flatMap { $0 } }

    private static let grpcViolations: [Violation] = [
        .init("a DATA frame before its headers", 502, someData),
        .init("headers for a stream nginx did not open", 502, H2.headerBlock(H2.status200, stream: 3)),
        .init("a reset stream (PROTOCOL_ERROR) instead of an answer", 502, H2.frame(H2.rstStream, H2.bigEndian(1))),
        .init("a RST_STREAM frame of the wrong length", 502, H2.frame(H2.rstStream, [0, 0])),
        .init("GOAWAY (INTERNAL_ERROR) instead of an answer", 502, H2.frame(H2.goaway, stream: 0, H2.bigEndian(0) + internalError)),
        .init("a GOAWAY frame of the wrong length", 502, H2.frame(H2.goaway, stream: 0, H2.bigEndian(0))),
        .init("GOAWAY on a stream", 502, H2.frame(H2.goaway, H2.bigEndian(0) + H2.bigEndian(0))),
        .init("a WINDOW_UPDATE frame of the wrong length", 502, H2.frame(H2.windowUpdate, stream: 0, [0, 0])),
        .init("a window grown past 2^31-1", 502, H2.frame(H2.windowUpdate, stream: 0, H2.bigEndian(0x7fff_ffff))),
        .init("SETTINGS on a stream", 502, H2.frame(H2.settings)),
        .init("a SETTINGS acknowledgement with a payload", 502, H2.frame(H2.settings, flags: H2.ack, stream: 0, [0, 0, 0, 0, 0, 0])),
        .init("a SETTINGS frame of the wrong length", 502, H2.frame(H2.settings, stream: 0, [0, 0, 0])),
        .init("an initial window past 2^31-1", 502, H2.frame(H2.settings, stream: 0, [0, 4] + H2.bigEndian(0x8000_0000))),
        .init("a flood of SETTINGS frames", 502, flood(H2.frame(H2.settings, stream: 0))),
        .init("PING on a stream", 502, H2.frame(H2.ping, [UInt8](repeating: 0, count: 8))),
        .init("a PING frame of the wrong length", 502, H2.frame(H2.ping, stream: 0, [0, 0, 0, 0])),
        .init("a PING acknowledgement nobody asked for", 502, H2.frame(H2.ping, flags: H2.ack, stream: 0, [UInt8](repeating: 0, count: 8))),
        .init("a padded HEADERS frame without its pad length", 502, H2.frame(H2.headers, flags: H2.endHeaders | H2.padded)),
        .init("padding longer than its frame", 502, H2.frame(H2.headers, flags: H2.endHeaders | H2.padded, [5] + H2.status200)),
        .init("an HPACK index past the static table", 502, H2.headerBlock([0xff, 0x7f])),
        .init("an HPACK index longer than two bytes", 502, H2.headerBlock([0x0f, 0x80, 0x81])),
        .init("a dynamic table larger than nginx allows", 502, H2.headerBlock([0x3f, 0xe1, 0x1f])),
        .init("an empty header name", 502, H2.headerBlock([0x00, 0x00, 0x01] + Array("x".utf8))),
        .init("a header name length past 2^21", 502, H2.headerBlock([0x00, 0x7f, 0x80, 0x80, 0x80, 0x01])),
        .init("a header value length past 2^21", 502, H2.headerBlock([0x00, 0x01] + Array("a".utf8) + [0x7f, 0x80, 0x80, 0x80, 0x01])),
        .init("a header block cut short", 502, H2.headerBlock([0x00, 0x05] + Array("ab".utf8))),
        .init("a Huffman code for no character", 502, H2.headerBlock([0x00, 0x81, 0x00, 0x01] + Array("a".utf8))),
        .init("an uppercase header name", 502, H2.headerBlock(H2.status200 + H2.field("X-Up", "v"))),
        .init("a pseudo-header other than :status", 502, H2.headerBlock(H2.status200 + H2.field(":path", "/"))),
        .init("headers without :status", 502, H2.headerBlock(H2.field("content-type", "application/grpc"))),
        .init(":status twice", 502, H2.headerBlock(H2.status200 + H2.status200)),
        .init("a :status that is not a number", 502, H2.headerBlock(H2.field(":status", "abc"))),
        .init("an interim :status (101)", 502, H2.headerBlock(H2.field(":status", "101"))),
        .init("a PUSH_PROMISE", 502, H2.frame(H2.pushPromise, flags: H2.endHeaders, H2.bigEndian(2) + H2.status200)),
        .init("CONTINUATION without HEADERS", 502, H2.frame(H2.continuation, flags: H2.endHeaders, H2.status200)),
        .init("a reset stream (INTERNAL_ERROR) mid-answer", 200, answered, someData + H2.frame(H2.rstStream, internalError)),
        .init("GOAWAY (INTERNAL_ERROR) mid-answer", 200, answered, someData + H2.frame(H2.goaway, stream: 0, H2.bigEndian(0) + internalError)),
        .init("a frame after its stream ended", 200, answered, H2.frame(H2.data, flags: H2.endStream) + someData),
        .init("a DATA frame for a stream nginx did not open", 200, answered, H2.frame(H2.data, stream: 3, Array("x".utf8))),
        .init("a padded DATA frame without its pad length", 200, answered, H2.frame(H2.data, flags: H2.padded)),
        .init("a flood of PING frames", 200, answered, flood(H2.frame(H2.ping, stream: 0, [UInt8](repeating: 0, count: 8)))),
        .init(
            "a stream that ends short of its Content-Length", 200, H2.headerBlock(H2.status200 + H2.field("content-length", "5")),
            H2.frame(H2.data, flags: H2.endStream, Array("x".utf8))),
        .init(
            "a body longer than its Content-Length", 200, H2.headerBlock(H2.status200 + H2.field("content-length", "1")),
            H2.frame(H2.data, flags: H2.endStream, Array("xx".utf8))),
        .init("trailers without END_STREAM", 200, answered, someData + H2.headerBlock(H2.field("grpc-status", "0"))),
        .init("an uppercase trailer", 200, answered, someData + H2.headerBlock(H2.field("Grpc-Status", "0"), extra: H2.endStream)),
        .init("a pseudo-header among the trailers", 200, answered, someData + H2.headerBlock(H2.status200, extra: H2.endStream)),
    ]

    private typealias FCGI = FastCGIRecord

    private static let fastCGIViolations: [Violation] = [
        .init("a record type FastCGI does not have", 502, FCGI.record(2, Array("x".utf8))),
        .init("the end of the request before any output", 502, FCGI.requestComplete),
        .init("an answer to request 256", 502, FCGI.record(FCGI.stdout, id: 256, Array("x".utf8))),
        .init("an answer to request 2", 502, FCGI.record(FCGI.stdout, id: 2, Array("x".utf8))),
        .init("standard output closed inside the headers", 502, FCGI.stdout("Status: 200 OK\r\n") + FCGI.record(FCGI.stdout)),
    ]

    private static let httpViolations: [Violation] = [
        .init("more than its Content-Length", 200, Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nlonger".utf8)),
        .init(
            "data after its last chunk", 200,
            Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\nextra".utf8)),
    ]

    /// nginx's `grpc_pass` to an upstream sending `violation`'s frames, asked as a gRPC client
    /// asks (a POST over HTTP/2 without TLS).
    private static func grpc(_ violation: Violation) -> LogReproduction {
        .init(name: "nginx, grpc_pass to an upstream sending \(violation.name)", slugs: ["websocket-and-grpc"], status: violation.status) {
            try with(.sends(violation.parts, then: .staysOpen)) { upstream in
                try Reproduce.nginx(
                    "server { listen 127.0.0.1:PORT http2; location / { grpc_pass grpc://127.0.0.1:\(upstream.port); grpc_read_timeout 2s; } }"
                ) { port in
                    try Visitor.status(
                        "http://127.0.0.1:\(port)/echo.Echo/Say", ["--http2-prior-knowledge", "-H", "content-type: application/grpc", "-d", "hello"])
                }
            }
        }
    }

    /// nginx's `proxy_pass` to an HTTP server sending `violation`'s bytes.
    private static func http(_ violation: Violation) -> LogReproduction {
        .init(name: "nginx, proxy_pass to a server sending \(violation.name)", slugs: ["upstream-closed-connection"], status: violation.status) {
            try with(.sends(violation.parts, then: .staysOpen)) { upstream in
                try Reproduce.nginx(location: "location / { proxy_pass http://127.0.0.1:\(upstream.port); }")
            }
        }
    }

    /// nginx's `fastcgi_pass` to an application server sending `violation`'s records.
    private static func fastCGI(_ violation: Violation) -> LogReproduction {
        .init(name: "nginx, fastcgi_pass to a server sending \(violation.name)", slugs: ["upstream-closed-connection"], status: violation.status) {
            try with(.sends(violation.parts, then: .staysOpen)) { upstream in
                try Reproduce.nginx(location: "location / { fastcgi_pass 127.0.0.1:\(upstream.port); fastcgi_read_timeout 2s; }")
            }
        }
    }
}
