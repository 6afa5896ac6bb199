import DetourTestSupport
import Foundation

/// Visitors whose own connection ends the request, not the server: one that stops reading the
/// answer (nginx's `send_timeout`).
extension LogReproduction {
    static let visitors: [LogReproduction] = [
        // The answer streams in faster than a visitor who reads nothing takes it: once the
        // sockets between them are full (nginx's send buffer held small), nginx waits
        // `send_timeout` and closes (`client timed out … while sending to client`, at info).
        // What arrived begins with the status line.
        .init(name: "nginx, a visitor who stops reading past send_timeout", slugs: [], status: 200) {
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
        }
    ]
}
