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
        let status = (try? HTTPClient.send(url, method: method, body: body).status) ?? 0
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

    /// Bodies Varnish 7.1's HTTP/1 fetch cannot read, each the way `cache_http1_vfp.c` names it
    /// (fetched whole, as above, so that the failure is the visitor's 503).
    private static let brokenBodies: [(String, String, FakeUpstream.Ending)] = [
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
            // Not streamed, so the body is fetched whole before delivery and the failed fetch is
            // vcl_synth's 503 (streamed, it is that or a 200 cut short, a race in varnishd).
            .init(name: "Varnish, a backend that closes in the middle of its body", slugs: ["upstream-closed-connection"], status: 503) {
                try with(.truncates) {
                    try Reproduce.varnish(
                        backend: #".host = "127.0.0.1"; .port = "\#($0.port)";"#,
                        subroutines: "sub vcl_backend_response { set beresp.do_stream = false; }\n")
                }
            },
            .init(name: "Varnish, a backend whose chunked body is broken", slugs: ["upstream-closed-connection"], status: 503) {
                try with(.invalidChunk) {
                    try Reproduce.varnish(
                        backend: #".host = "127.0.0.1"; .port = "\#($0.port)";"#,
                        subroutines: "sub vcl_backend_response { set beresp.do_stream = false; }\n")
                }
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
}
