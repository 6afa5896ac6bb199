import DetourTestSupport
import Foundation

/// Visitors whose own connection ends the request, not the server: one that stops reading the
/// answer (nginx's `send_timeout`); and visitors more than nginx has file descriptors for.
extension LogReproduction {
    static let visitors: [LogReproduction] = [
        // nginx's worker left no descriptor to spare: the visitor cannot be accepted
        // (`accept4() failed (24: …)`: it waits, unanswered); left one, the visitor is, and the
        // connection to the upstream cannot be opened.
        .init(name: "nginx out of open files as it accepts", slugs: ["overload-and-queues"], status: 0) {
            try outOfOpenFiles(free: 0)
        },
        .init(name: "nginx out of open files as it connects upstream", slugs: ["overload-and-queues"], status: 500) {
            try outOfOpenFiles(free: 1)
        },
        // The answer streams in faster than a visitor who reads nothing takes it: once the
        // sockets between them are full (nginx's send buffer held small), nginx waits
        // `send_timeout` and closes (`client timed out … while sending to client`, at info).
        // What arrived begins with the status line.
        .init(name: "nginx, a visitor who stops reading past send_timeout", slugs: ["client-closed-request"], status: 200) {
            try with(.streams) { upstream in
                try Reproduce.nginx(
                    "server { listen 127.0.0.1:PORT sndbuf=32k; send_timeout 1s; location / { proxy_buffering off; proxy_pass http://127.0.0.1:\(upstream.port); } }"
                ) {
                    let visitor = try VisitorConnection(port: $0)
                    guard visitor.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n") else { return 0 }
                    sleep(3)
                    return visitor.status()
                }
            }
        },
    ]

    /// nginx proxying to a silent upstream, asked once its worker's open-files limit is what it
    /// holds plus `free`.
    private static func outOfOpenFiles(free: Int) throws -> Outcome {
        try with(.silent) { upstream in
            // Workers that run as root, as the tests do: a process of another user's limits
            // need CAP_SYS_RESOURCE to change, which a container may not grant.
            try Reproduce.nginx("server { listen 127.0.0.1:PORT; location / { proxy_pass http://127.0.0.1:\(upstream.port); } }", main: "user root root;") {
                port, nginx in
                // The connection that found the port open is closed before the count.
                guard Poll.until(timeout: 5, { nginx.errorLog.contains("while waiting for request") }) else {
                    throw ReproductionError(message: "nginx never closed the connection that found its port open")
                }
                try nginx.limitWorkersOpenFiles(free: free)
                return try Visitor.status("http://127.0.0.1:\(port)/", seconds: 1.5)
            }
        }
    }
}
