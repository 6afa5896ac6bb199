import DetourTestSupport
import Foundation
import Glibc

/// Races between an upstream's hang-up and nginx, each pinned down to one outcome. nginx
/// reports the hang-up where it meets it first: in the write that sends the visitor's bytes
/// on, in the check of a kept-alive connection it reuses, or (when both its read and its
/// write are due) in its read of the response. To meet it in a write, nginx's worker is
/// stopped (SIGSTOP) while the visitor's next bytes and then the upstream's FIN or RST arrive,
/// and handles both in that order when it continues, as a busy worker does.
extension LogReproduction {
    static let races: [LogReproduction] = [
        // An unbuffered upload streams through; the upstream resets the connection before the
        // next part: nginx's write of it fails.
        .init(name: "nginx, an upstream that resets the connection an unbuffered upload streams over", slugs: ["upstream-closed-connection"], status: 502) {
            try unbufferedUpload(upstreamResets: true)
        },
        // The same with a FIN: the first write after it succeeds and draws the upstream's RST,
        // the next fails with EPIPE.
        .init(name: "nginx, an upstream that closes the connection an unbuffered upload streams over", slugs: ["upstream-closed-connection"], status: 502) {
            try unbufferedUpload(upstreamResets: false)
        },
        // A buffered upload: nginx's writes of it wait for room when the upstream resets
        // the connection, and its read of the response, which comes first, meets the reset,
        // as after a worker that died.
        .init(name: "nginx, an upstream that resets the connection an upload waits on", slugs: ["workers-killed"], status: 502) {
            try withUpload { file in
                try with(.silent) { upstream in
                    try Reproduce.nginx(
                        "server { listen 127.0.0.1:PORT; location / { client_max_body_size 50m; proxy_pass http://127.0.0.1:\(upstream.port); } }"
                    ) { port in
                        try resetOnceTheProxyWaits(upstream) { (try? Visitor.status("http://127.0.0.1:\(port)/", ["--data-binary", "@" + file])) ?? 0 }
                    }
                }
            }
        },
        .init(name: "nginx, a kept-alive upstream connection closed as a GET reuses it", slugs: ["upstream-closed-connection"], status: 200) {
            try keptAliveConnectionReused(method: "GET", upstreamResets: false)
        },
        .init(name: "nginx, a kept-alive upstream connection closed as a POST reuses it", slugs: ["upstream-closed-connection"], status: 502) {
            try keptAliveConnectionReused(method: "POST", upstreamResets: false)
        },
        .init(name: "nginx, a kept-alive upstream connection reset before a GET reuses it", slugs: ["upstream-closed-connection"], status: 200) {
            try keptAliveConnectionReused(method: "GET", upstreamResets: true)
        },
        .init(name: "nginx, a kept-alive upstream connection reset before a POST reuses it", slugs: ["upstream-closed-connection"], status: 200) {
            try keptAliveConnectionReused(method: "POST", upstreamResets: true)
        },
    ]

    /// What `ask` gets when `upstream` resets the connection once the proxy's writes of the
    /// request wait for room (`ask` runs on another thread meanwhile).
    static func resetOnceTheProxyWaits(_ upstream: FakeUpstream, ask: @escaping @Sendable () -> Int) throws -> Int {
        let answered = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var status = 0
        DispatchQueue.global().async {
            status = ask()
            answered.signal()
        }
        let waited = upstream.waitUntilProxyWaits()
        if waited { upstream.hangUp(reset: true) }
        answered.wait()
        guard waited else { throw ReproductionError(message: "the proxy's writes of the upload never waited") }
        return status
    }

    /// The visitor's bytes, then (nginx's worker stopped) the upstream's hang-up.
    private static func pinned(_ nginx: NginxServer, visitorSends send: () -> Void, upstreamHangsUp hangUp: () -> Void) {
        nginx.signalWorkers(SIGSTOP)
        defer { nginx.signalWorkers(SIGCONT) }
        send()
        // Delivered to nginx's socket before the hang-up is, on a loaded machine too.
        usleep(50_000)
        hangUp()
        usleep(50_000)
    }

    /// A 128 KiB upload with `proxy_request_buffering off`, its second half sent once the
    /// upstream has read the first.
    private static func unbufferedUpload(upstreamResets: Bool) throws -> Outcome {
        try with(.drains) { upstream in
            try Reproduce.nginx(
                "server { listen 127.0.0.1:PORT; location / { proxy_request_buffering off; proxy_pass http://127.0.0.1:\(upstream.port); } }"
            ) { port, nginx in
                let visitor = try VisitorConnection(port: port)
                let half = String(repeating: "x", count: 65536)
                visitor.send("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(2 * half.utf8.count)\r\n\r\n" + half)
                guard upstream.waitUntilReceived(half.utf8.count) else { throw ReproductionError(message: "nginx did not pass the upload's first half on") }
                pinned(nginx, visitorSends: { visitor.send(half) }, upstreamHangsUp: { upstream.hangUp(reset: upstreamResets) })
                return visitor.status()
            }
        }
    }

    /// Two requests on one visitor connection through an `upstream` that keeps its connections
    /// alive; the upstream hangs up the idle one as the second request comes.
    private static func keptAliveConnectionReused(method: String, upstreamResets: Bool) throws -> Outcome {
        try with(.keepsAlive) { upstream in
            let servers = """
                upstream app { server 127.0.0.1:\(upstream.port); keepalive 4; }
                server { listen 127.0.0.1:PORT; location / { proxy_http_version 1.1; proxy_set_header Connection ""; proxy_pass http://app; } }
                """
            return try Reproduce.nginx(servers) { port, nginx in
                let visitor = try VisitorConnection(port: port)
                let request =
                    method == "GET" ? "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n" : "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\na=1"
                visitor.send(request)
                guard visitor.status() == 200 else { throw ReproductionError(message: "the first request was not answered") }
                pinned(nginx, visitorSends: { visitor.send(request) }, upstreamHangsUp: { upstream.hangUp(reset: upstreamResets) })
                return visitor.status()
            }
        }
    }
}
