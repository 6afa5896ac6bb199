import DetourTestSupport
import Foundation

extension Reproduce {
    /// Varnish 7.1 in front of one backend (the fields of its VCL `backend default { … }`, and
    /// `subroutines` of the VCL's own), asked once by `method` with `body`, after `concurrent` -
    /// 1 requests that hold the backend's connections. Its log is what `varnishlog -d -i FetchError` prints of the shared-memory log
    /// afterwards, as an operator asks Varnish which fetches failed. The request is made in this
    /// process, and varnishd stops before anything waits for varnishlog: while varnishd's jailed
    /// manager runs, Foundation reaps no other child, so waiting for one would never end.
    static func varnish(
        backend: String, subroutines: String = "", method: String = "GET", body: Data? = nil, concurrent: Int = 1
    ) throws -> LogReproduction.Outcome {
        try varnish(backend: backend, subroutines: subroutines, concurrent: concurrent) { port in
            (try? HTTPClient.send("http://127.0.0.1:\(port)/", method: method, body: body).status) ?? 0
        }
    }

    /// The same, asked by `ask` (given the port) for the status the visitor gets.
    static func varnish(backend: String, subroutines: String = "", concurrent: Int = 1, ask: (Int) throws -> Int) throws -> LogReproduction.Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let port = LoopbackPort.free()
        try folder.write(["default.vcl": "vcl 4.1;\nbackend default { \(backend) }\n\(subroutines)"])
        let name = folder.path + "/varnish"
        let varnishd = try ServerProcess(
            "varnishd", ["-F", "-a", "127.0.0.1:\(port)", "-f", folder.path + "/default.vcl", "-n", name],
            log: folder.url.appendingPathComponent("varnishd.log"))
        defer { varnishd.stop() }
        guard LoopbackPort.waitUntilOpen(port) else { return .init(status: -1, log: varnishd.log) }
        let url = "http://127.0.0.1:\(port)/"
        // Earlier requests hold the backend's connections while the last one is asked, each
        // for a URL of its own (Varnish would have one URL's requests wait for one fetch).
        let holding = DispatchGroup()
        for index in 1..<max(concurrent, 1) {
            DispatchQueue.global().async(group: holding) { _ = try? HTTPClient.get(url + "held-\(index)") }
            usleep(300_000)
        }
        let status = try ask(port)
        holding.wait()
        // -d: from the head of the log to its end, then exit; what it printed is there once the
        // backend's transaction (`<< BeReq >>`) is.
        let varnishlog = try ServerProcess("varnishlog", ["-d", "-n", name, "-i", "FetchError"], log: folder.url.appendingPathComponent("varnishlog.log"))
        _ = Poll.until(timeout: 5) { varnishlog.log.contains("<< BeReq") }
        varnishd.stop()
        varnishlog.stop()
        return .init(status: status, log: varnishlog.log)
    }
}

extension LogReproduction {
    private static let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"

    /// Bodies Varnish 7.1's HTTP/1 fetch cannot read, each the way `cache_http1_vfp.c` names it.
    /// Not streamed, so each body is fetched whole before delivery and the failed fetch is
    /// vcl_synth's 503 (streamed, it is that or a 200 cut short, a race in varnishd).
    private static let brokenBodies: [(String, String, FakeUpstream.Ending)] = [
        ("cut short of its Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + String(repeating: "x", count: 1000), .closes),
        ("chunked with a size that is not hex", chunked + "zz\r\nhello\r\n0\r\n\r\n", .closes),
        ("chunked and ends before its last chunk", chunked, .closes),
        ("chunked with a size of more than 19 digits", chunked + "123456789012345678901\r\n", .staysOpen),
        ("chunked with a size followed by more than its line's end", chunked + "5x\r\nhello\r\n0\r\n\r\n", .staysOpen),
        ("chunked with a size past what Varnish can hold", chunked + "ffffffffffffffff\r\nx", .staysOpen),
        ("chunked with a chunk shorter than its size", chunked + "10\r\nabc", .closes),
        ("chunked with a chunk not followed by its line's end", chunked + "1\r\nxZ", .staysOpen),
        ("read until the connection closes, and reset midway", "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + String(repeating: "x", count: 1000), .resets),
    ]

    /// Varnish answers every failed fetch with 503 (`Backend fetch failed`); `varnishlog` says why.
    static let varnish: [LogReproduction] =
        [
            .init(name: "Varnish, nothing listens on the backend port", slugs: ["upstream-connection-refused"], status: 503) {
                try Reproduce.varnish(backend: #".host = "127.0.0.1"; .port = "\#(LoopbackPort.free())";"#)
            },
            .init(name: "Varnish, a backend that never answers", slugs: ["upstream-timed-out"], status: 503) {
                try with(.silent) { try Reproduce.varnish(backend: #".host = "127.0.0.1"; .port = "\#($0.port)"; .first_byte_timeout = 1s;"#) }
            },
            .init(name: "Varnish, a backend that closes without answering", slugs: ["upstream-closed-connection"], status: 503) {
                try with(.closes) { try Reproduce.varnish(backend: #".host = "127.0.0.1"; .port = "\#($0.port)";"#) }
            },
            // A line and a close: to Varnish the backend hung up before its headers.
            .init(name: "Varnish, a backend that answers something not HTTP", slugs: ["upstream-closed-connection"], status: 503) {
                try with(.notHTTP) { try Reproduce.varnish(backend: #".host = "127.0.0.1"; .port = "\#($0.port)";"#) }
            },
            .init(name: "Varnish, a backend whose status line has no code", slugs: ["upstream-closed-connection"], status: 503) {
                try with(.malformedStatus) { try Reproduce.varnish(backend: #".host = "127.0.0.1"; .port = "\#($0.port)";"#) }
            },
            .init(name: "Varnish, a backend whose headers outgrow http_resp_size", slugs: ["upstream-header-too-big"], status: 503) {
                try with(.hugeHeader(bytes: 100_000)) { try Reproduce.varnish(backend: #".host = "127.0.0.1"; .port = "\#($0.port)";"#) }
            },
        ]
        + brokenBodies.map { name, bytes, ending in
            .init(name: "Varnish, a backend whose body is \(name)", slugs: ["upstream-closed-connection"], status: 503) {
                try with(.sends([Array(bytes.utf8)], then: ending)) {
                    try Reproduce.varnish(
                        backend: #".host = "127.0.0.1"; .port = "\#($0.port)";"#,
                        subroutines: "sub vcl_backend_response { set beresp.do_stream = false; }\n")
                }
            }
        } + [
            .init(name: "Varnish, a backend that never accepts the connection", slugs: ["upstream-connect-timeout"], status: 503) {
                try with(.neverAccepts) { try Reproduce.varnish(backend: #".host = "127.0.0.1"; .port = "\#($0.port)"; .connect_timeout = 1s;"#) }
            },
            .init(name: "Varnish, a backend whose headers never end", slugs: ["upstream-timed-out"], status: 503) {
                try with(.stallsInHeaders) {
                    try Reproduce.varnish(backend: #".host = "127.0.0.1"; .port = "\#($0.port)"; .first_byte_timeout = 1s; .between_bytes_timeout = 1s;"#)
                }
            },
            // The first request holds the only connection until its first byte times out.
            .init(name: "Varnish, a backend at its .max_connections", slugs: ["overload-and-queues", "upstream-timed-out"], status: 503) {
                try with(.silent) {
                    try Reproduce.varnish(
                        backend: #".host = "127.0.0.1"; .port = "\#($0.port)"; .max_connections = 1; .first_byte_timeout = 1s;"#, concurrent: 2)
                }
            },
            // The body is refused while it is read: the visitor's connection closes without an answer.
            .init(name: "Varnish, a form larger than std.cache_req_body keeps", slugs: ["request-too-large"], status: 0) {
                try with(.answers) {
                    try Reproduce.varnish(
                        backend: #".host = "127.0.0.1"; .port = "\#($0.port)";"#, subroutines: "import std;\nsub vcl_recv { std.cache_req_body(1KB); }\n",
                        method: "POST", body: Data(repeating: UInt8(ascii: "x"), count: 100_000))
                }
            },
            // Varnish passes a POST and sends its body on as it reads it, with blocking writes
            // and no timeout of their own (cache_http1_fetch.c): the reset ends the write. Asked
            // from this process, as `Reproduce.varnish` says why.
            .init(name: "Varnish, a backend that resets the connection an upload waits on", slugs: ["upstream-closed-connection"], status: 503) {
                try with(.silent) { upstream in
                    try Reproduce.varnish(backend: #".host = "127.0.0.1"; .port = "\#(upstream.port)";"#) { port in
                        try resetOnceTheProxyWaits(upstream) {
                            (try? HTTPClient.send("http://127.0.0.1:\(port)/", method: "POST", body: Data(count: 32_000_000)).status) ?? 0
                        }
                    }
                }
            },
            // Varnish's lines do not say which side hung up: the visitor's reset reads as the
            // backend's above, with the client side's own `Connection reset by peer` beside it.
            .init(name: "Varnish, a visitor who resets the connection in the middle of an upload", slugs: ["upstream-closed-connection"], status: 0) {
                try with(.drains) { upstream in
                    try Reproduce.varnish(backend: #".host = "127.0.0.1"; .port = "\#(upstream.port)";"#) { port in
                        try visitorLeavesAnUpload(port: port, upstream: upstream, reset: true)
                    }
                }
            },
            // A FIN: the body's read ends early with no errno (`0 (Success)`), and the client
            // side's read says `straight insufficient bytes`, as a backend's short body does.
            .init(name: "Varnish, a visitor who leaves in the middle of an upload", slugs: ["client-closed-request", "upstream-closed-connection"], status: 0) {
                try with(.drains) { upstream in
                    try Reproduce.varnish(backend: #".host = "127.0.0.1"; .port = "\#(upstream.port)";"#) { port in
                        try visitorLeavesAnUpload(port: port, upstream: upstream, reset: false)
                    }
                }
            },
            .init(name: "Varnish, a director whose every backend its probe marked sick", slugs: ["health-checks-mark-all-backends-down"], status: 503) {
                try Reproduce.varnish(
                    backend:
                        #".host = "127.0.0.1"; .port = "\#(LoopbackPort.free())"; .probe = { .url = "/"; .initial = 0; .window = 2; .threshold = 2; .interval = 5s; }"#,
                    subroutines:
                        "import directors;\nsub vcl_init { new cluster = directors.round_robin(); cluster.add_backend(default); }\nsub vcl_recv { set req.backend_hint = cluster.backend(); }\n"
                )
            },
            // Sick from the start (`.initial = 0`): the fetch is not even tried.
            .init(name: "Varnish, a backend its probe marked sick", slugs: ["health-checks-mark-all-backends-down"], status: 503) {
                try Reproduce.varnish(
                    backend:
                        #".host = "127.0.0.1"; .port = "\#(LoopbackPort.free())"; .probe = { .url = "/"; .initial = 0; .window = 2; .threshold = 2; .interval = 1s; }"#
                )
            },
        ]

    /// A visitor that sends a quarter of the body it announced and, once the backend has it,
    /// leaves (a FIN, or with `reset` a RST): it gets nothing.
    private static func visitorLeavesAnUpload(port: Int, upstream: FakeUpstream, reset: Bool) throws -> Int {
        let visitor = try VisitorConnection(port: port)
        let quarter = String(repeating: "x", count: 65536)
        visitor.send("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(4 * quarter.utf8.count)\r\n\r\n" + quarter)
        guard upstream.waitUntilReceived(quarter.utf8.count) else { throw ReproductionError(message: "the upload's first bytes did not reach the backend") }
        visitor.leave(reset: reset)
        usleep(300_000)
        return 0
    }
}
