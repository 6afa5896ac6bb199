import DetourTestSupport
import Foundation

/// Every failure the shipped articles explain, made to happen on the real servers. Together
/// they must write a line for every `log_patterns` entry (see ShippedLogPatternTests).
extension LogReproduction {
    static var all: [LogReproduction] {
        nginx + nginxWithApplications + uwsgiBehindNginx + haproxy + caddy + http2 + brokenProtocols + staticFiles + apache + varnish + requests + network
            + races + configuration + haproxySessions + visitors + authRequests + configurationAtRequestTime
            + tlsRecords + apacheRules + visitorTLS + spooling + proxyProtocol
    }

    static func with(_ behaviour: FakeUpstream.Behaviour, _ body: (FakeUpstream) throws -> Outcome) throws -> Outcome {
        let upstream = try FakeUpstream(behaviour)
        defer { upstream.stop() }
        return try body(upstream)
    }

    /// `body` with the path of a 32 MB file to upload: more than the sockets' buffers hold, so
    /// nginx's writes of it wait for the upstream to read.
    static func withUpload(_ body: (String) throws -> Outcome) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path + "/upload.bin"
        FileManager.default.createFile(atPath: file, contents: Data(count: 32_000_000))
        return try body(file)
    }

    /// `body` with an HTTPS upstream whose certificate no public CA vouches for, on its port.
    static func withSelfSignedTLS(subjectAltName: String? = nil, _ body: (Int) throws -> Outcome) throws -> Outcome {
        let upstream = try TLSUpstream(subjectAltName: subjectAltName)
        defer { upstream.stop() }
        return try body(upstream.port)
    }

    private static func proxied(_ behaviour: FakeUpstream.Behaviour, options: [String] = []) throws -> Outcome {
        try with(behaviour) { try Reproduce.nginx(location: "location / { proxy_pass http://127.0.0.1:\($0.port); }", options: options) }
    }

    /// nginx's `fastcgi_pass` to a unix socket of file mode `mode` that behaves as told, or,
    /// with `abandoned`, whose listener stopped without removing it (as a killed PHP-FPM leaves it).
    private static func fastCGISocket(_ behaviour: FakeUpstream.Behaviour, mode: mode_t, abandoned: Bool = false) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        chmod(folder.path, 0o755)
        let upstream = try FakeUpstream(behaviour, unixSocket: folder.path + "/php8.2-fpm.sock", mode: mode)
        if abandoned { upstream.stop() }
        defer { if !abandoned { upstream.stop() } }
        return try Reproduce.nginx(location: "location / { fastcgi_pass unix:\(folder.path)/php8.2-fpm.sock; }")
    }

    static let nginx: [LogReproduction] = [
        .init(name: "nginx, an upstream that never answers", slugs: ["upstream-timed-out"], status: 504) { try proxied(.silent) },
        .init(name: "nginx, an upstream that closes without answering", slugs: ["upstream-closed-connection"], status: 502) { try proxied(.closes) },
        // nginx passes a reply without a status line on as HTTP/0.9: no status at all.
        // The status left before the reset; the visitor gets 1,000 of the 100,000 bytes announced.
        .init(name: "nginx, an upstream that resets the connection in the middle of its body", slugs: ["upstream-closed-connection"], status: 200) {
            try proxied(.resetsMidBody)
        },
        .init(name: "nginx, an upstream header whose name holds a space", slugs: ["upstream-closed-connection"], status: 502) {
            try proxied(.invalidHeader)
        },
        .init(name: "nginx, an upstream that answers something not HTTP", slugs: ["upstream-closed-connection"], status: 0) { try proxied(.notHTTP) },
        .init(name: "nginx, an upstream that closes in the middle of its body", slugs: ["upstream-closed-connection"], status: 200) {
            try proxied(.truncates)
        },
        // The broken chunk comes with the headers: nginx drops the response before sending any
        // of it and closes the visitor's connection.
        .init(name: "nginx, an upstream whose chunked body is broken", slugs: ["upstream-closed-connection"], status: 0) {
            try proxied(.invalidChunk)
        },
        // The status left before the silence; past the read timeout the download is cut short.
        .init(name: "nginx, an upstream that stops in the middle of its body", slugs: ["upstream-timed-out"], status: 200) {
            try proxied(.stallsMidBody)
        },
        // The upstream reads the request's first bytes and no more: once the sockets' buffers
        // are full, nginx's write waits past proxy_send_timeout.
        .init(name: "nginx, an upstream that stops reading the request body", slugs: ["upstream-timed-out"], status: 504) {
            try withUpload { file in
                try with(.silent) {
                    try Reproduce.nginx(
                        location: "location / { client_max_body_size 50m; proxy_send_timeout 1s; proxy_pass http://127.0.0.1:\($0.port); }",
                        options: ["--data-binary", "@" + file])
                }
            }
        },
        .init(name: "nginx, response headers bigger than the buffer", slugs: ["upstream-header-too-big"], status: 502) {
            try proxied(.hugeHeader(bytes: 16_000))
        },
        .init(name: "nginx, nothing listens on the upstream port", slugs: ["upstream-connection-refused"], status: 502) {
            try Reproduce.nginx(location: "location / { proxy_pass http://127.0.0.1:\(LoopbackPort.free()); }")
        },
        .init(name: "nginx, every server of the upstream failed", slugs: ["upstream-connection-refused", "health-checks-mark-all-backends-down"], status: 502) {
            // The first request marks both servers failed (nginx ignores max_fails for an
            // upstream of one server); the second finds none left to try.
            let servers = (0..<2).map { _ in "server 127.0.0.1:\(LoopbackPort.free()) max_fails=1 fail_timeout=30s;" }.joined(separator: " ")
            return try Reproduce.nginx("upstream app { \(servers) } server { listen 127.0.0.1:PORT; location / { proxy_pass http://app; } }") { port in
                _ = try Visitor.status("http://127.0.0.1:\(port)/")
                return try Visitor.status("http://127.0.0.1:\(port)/")
            }
        },
        .init(name: "nginx, a firewall drops the connection", slugs: ["upstream-connect-timeout"], status: 504) { try proxied(.neverAccepts) },
        .init(name: "nginx, a missing PHP-FPM socket", slugs: ["php-fpm-socket-unavailable"], status: 502) {
            try Reproduce.nginx(location: "location / { fastcgi_pass unix:/run/detour-test-missing/php8.2-fpm.sock; }")
        },
        .init(name: "nginx, a PHP-FPM socket its workers may not open", slugs: ["php-fpm-socket-unavailable"], status: 502, runnable: getuid() == 0) {
            // As root, as CI runs: the workers (nobody) may not open a socket only root may.
            try fastCGISocket(.closes, mode: 0o600)
        },
        .init(name: "nginx, a PHP-FPM socket nothing listens on", slugs: ["php-fpm-socket-unavailable"], status: 502) {
            try fastCGISocket(.closes, mode: 0o666, abandoned: true)
        },
        .init(name: "nginx, a FastCGI socket whose queue is full", slugs: ["overload-and-queues"], status: 502) {
            try fastCGISocket(.neverAccepts, mode: 0o666)
        },
        .init(name: "nginx, fastcgi_pass to an HTTP server", slugs: ["upstream-closed-connection"], status: 502) {
            try with(.answers) { try Reproduce.nginx(location: "location / { fastcgi_pass 127.0.0.1:\($0.port); }") }
        },
        .init(name: "nginx, a worker reset the FastCGI connection", slugs: ["workers-killed"], status: 502) {
            try with(.resets) { try Reproduce.nginx(location: "location / { fastcgi_pass 127.0.0.1:\($0.port); }") }
        },
        .init(name: "nginx, limit_req turns the second request away", slugs: ["rate-limiting"], status: 503) {
            try Reproduce.nginx(
                "limit_req_zone $binary_remote_addr zone=perip:1m rate=1r/m; server { listen 127.0.0.1:PORT; location / { root {{PREFIX}}; limit_req zone=perip; } }"
            ) { port in
                _ = try Visitor.status("http://127.0.0.1:\(port)/nginx.conf")
                return try Visitor.status("http://127.0.0.1:\(port)/nginx.conf")
            }
        },
        // The request holding the connection times out on the silent upstream.
        .init(name: "nginx, limit_conn turns the second connection away", slugs: ["rate-limiting", "upstream-timed-out"], status: 503) {
            try with(.silent) { upstream in
                try Reproduce.nginx(
                    "limit_conn_zone $binary_remote_addr zone=addr:1m; server { listen 127.0.0.1:PORT; proxy_read_timeout 2s; location / { limit_conn addr 1; proxy_pass http://127.0.0.1:\(upstream.port); } }"
                ) { port in
                    let held = DispatchGroup()
                    DispatchQueue.global().async(group: held) { _ = try? Visitor.status("http://127.0.0.1:\(port)/") }
                    usleep(400_000)
                    defer { held.wait() }
                    return try Visitor.status("http://127.0.0.1:\(port)/")
                }
            }
        },
        .init(name: "nginx, a name the resolver does not know", slugs: ["upstream-dns"], status: 502) {
            let resolver = try FakeResolver()
            defer { resolver.stop() }
            return try Reproduce.nginx(location: "resolver 127.0.0.1:\(resolver.port); location / { set $app app.internal; proxy_pass http://$app:8080; }")
        },
        .init(name: "nginx, a resolver that does not answer", slugs: ["upstream-dns"], status: 502) {
            try Reproduce.nginx(
                location: "resolver 127.0.0.1:\(LoopbackPort.free()); resolver_timeout 1s; location / { set $app app.internal; proxy_pass http://$app:8080; }")
        },
        .init(name: "nginx, a name in a variable and no resolver", slugs: ["upstream-dns"], status: 502) {
            try Reproduce.nginx(location: "location / { set $app app.internal; proxy_pass http://$app:8080; }")
        },
        .init(name: "nginx, an upstream name unknown at start", slugs: ["upstream-dns"], status: -1) {
            try Reproduce.nginx(location: "location / { proxy_pass http://app.invalid:8080; }")
        },
        .init(name: "nginx, an upstream certificate it cannot verify", slugs: ["upstream-tls"], status: 502) {
            try withSelfSignedTLS {
                try Reproduce.nginx(
                    location:
                        "location / { proxy_pass https://127.0.0.1:\($0); proxy_ssl_verify on; proxy_ssl_trusted_certificate /etc/ssl/certs/ca-certificates.crt; }"
                )
            }
        },
        // The certificate is trusted, but names app.internal, not the upstream block nginx was told.
        .init(name: "nginx, an upstream certificate for another name", slugs: ["upstream-tls"], status: 502) {
            let upstream = try TLSUpstream()
            defer { upstream.stop() }
            return try Reproduce.nginx(
                location: "location / { proxy_pass https://backend; proxy_ssl_verify on; proxy_ssl_trusted_certificate \(upstream.certificate); }",
                http: "upstream backend { server 127.0.0.1:\(upstream.port); }")
        },
        .init(name: "nginx, https:// to an upstream that speaks plain HTTP", slugs: ["upstream-tls"], status: 502) {
            try with(.answers) { try Reproduce.nginx(location: "location / { proxy_pass https://127.0.0.1:\($0.port); }") }
        },
        // The upstream reads the ClientHello, then hangs up: with a FIN, or with a reset.
        .init(name: "nginx, https:// to an upstream that hangs up on the handshake", slugs: ["upstream-tls"], status: 502) {
            try with(.closes) { try Reproduce.nginx(location: "location / { proxy_pass https://127.0.0.1:\($0.port); }") }
        },
        .init(name: "nginx, https:// to an upstream that resets the handshake", slugs: ["upstream-tls"], status: 502) {
            try with(.resets) { try Reproduce.nginx(location: "location / { proxy_pass https://127.0.0.1:\($0.port); }") }
        },
        .init(name: "nginx, try_files falling back to a file that is not there", slugs: ["nginx-internal-redirection-cycle"], status: 500) {
            try Reproduce.nginx(location: "root {{PREFIX}}/www; location / { try_files $uri $uri/ /index.html; }", path: "/app/settings")
        },
        .init(name: "nginx, a named location whose try_files falls back to itself", slugs: ["nginx-internal-redirection-cycle"], status: 500) {
            try Reproduce.nginx(location: "location / { try_files $uri @app; } location @app { try_files /maintenance.html @app; }", path: "/orders")
        },
        .init(name: "nginx, a rewrite whose result it rewrites again", slugs: ["nginx-internal-redirection-cycle"], status: 500) {
            try Reproduce.nginx(location: "location / { rewrite ^/(.*)$ /index.php?q=$1 last; }", path: "/app")
        },
        // The listener takes one of the two: the visitor's connection is closed unanswered.
        .init(name: "nginx, more connections than worker_connections", slugs: ["overload-and-queues"], status: 0) {
            try with(.answers) { upstream in
                try Reproduce.nginx("server { listen 127.0.0.1:PORT; location / { proxy_pass http://127.0.0.1:\(upstream.port); } }", workerConnections: 2) {
                    try Visitor.status("http://127.0.0.1:\($0)/", seconds: 2)
                }
            }
        },
        .init(name: "nginx, a visitor who leaves before the upstream answers", slugs: ["client-closed-request"], status: 0) {
            try with(.silent) { upstream in
                try Reproduce.nginx("server { listen 127.0.0.1:PORT; location / { proxy_pass http://127.0.0.1:\(upstream.port); } }") { port in
                    try Visitor.status("http://127.0.0.1:\(port)/", seconds: 0.5)
                }
            }
        },
        .init(name: "nginx, an idle WebSocket past proxy_read_timeout", slugs: ["websocket-and-grpc"], status: 101) {
            try with(.upgrades) {
                try Reproduce.nginx(
                    location:
                        "location / { proxy_pass http://127.0.0.1:\($0.port); proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection upgrade; }",
                    options: Visitor.webSocket)
            }
        },
        .init(name: "nginx, grpc_pass to an upstream that speaks HTTP/1", slugs: ["websocket-and-grpc"], status: 502) {
            try with(.answers) { upstream in
                try Reproduce.nginx("server { listen 127.0.0.1:PORT http2; location / { grpc_pass grpc://127.0.0.1:\(upstream.port); } }") { port in
                    try Visitor.status("http://127.0.0.1:\(port)/", ["--http2-prior-knowledge"])
                }
            }
        },
    ]
}
