import DetourTestSupport

/// The PROXY protocol on at one end only: a client without the header on a port that expects
/// it (no HTTP answer at all), and the header on a port that does not (400).
extension LogReproduction {
    /// A server that expects the header.
    private static let expecting = "server { listen 127.0.0.1:PORT proxy_protocol; location / { return 200 ok; } }"

    /// Version 2's signature, then `rest`: its version and command, family and length, and more.
    private static func versionTwo(_ rest: String) -> String { "\r\n\r\n\0\r\nQUIT\n" + rest }

    static let proxyProtocol: [LogReproduction] = [
        // nginx quotes the request it got instead, over as many lines as the request has.
        .init(name: "nginx, a request without the PROXY header on a proxy_protocol port", slugs: ["proxy-protocol-mismatch"], status: 0) {
            try Reproduce.nginx(expecting) { port in try Visitor.status("http://127.0.0.1:\(port)/") }
        },
        .init(name: "nginx, the PROXY header on a port without proxy_protocol", slugs: ["proxy-protocol-mismatch"], status: 400) {
            try Reproduce.nginx("server { listen 127.0.0.1:PORT; location / { return 200 ok; } }") { port in
                try Visitor.status("http://127.0.0.1:\(port)/", ["--haproxy-protocol"])
            }
        },
        .init(name: "nginx, a PROXY header of a version it does not know", slugs: ["proxy-protocol-mismatch"], status: 0) {
            try Reproduce.nginx(expecting) { port in
                _ = LoopbackPort.exchange(port, versionTwo("\u{31}\u{11}\0\u{0c}") + String(repeating: "\u{7f}", count: 12))
                return 0
            }
        },
        // nginx 1.22 parses what its first read brings: a header still arriving is "too large".
        .init(name: "nginx, a version 2 PROXY header not all there", slugs: ["proxy-protocol-mismatch"], status: 0) {
            try Reproduce.nginx(expecting) { port in
                _ = LoopbackPort.exchange(port, versionTwo("\u{21}\u{11}\0\u{0c}") + "\u{7f}\0\0\u{1}")
                return 0
            }
        },
        // `expect-proxy` is the frontend's rule for what `accept-proxy` says on a bind line.
        .init(name: "HAProxy, a request without the PROXY header where it expects one", slugs: ["proxy-protocol-mismatch"], status: 0) {
            try Reproduce.haproxy(
                server: "127.0.0.1:\(LoopbackPort.free())", frontend: "tcp-request connection expect-proxy layer4\n    default_backend app")
        },
    ]
}
