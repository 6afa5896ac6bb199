import DetourTestSupport
import Foundation

/// Caddy between HTTP/2 peers that reset a stream, as gRPC clients and servers do: the visitor
/// who gives up, or the upstream that fails mid-answer. Go's HTTP/2 code tells them apart in
/// the error: a reset the upstream sent ends `; received from peer`, the visitor's does not.
extension LogReproduction {
    static let http2: [LogReproduction] = [
        .init(name: "Caddy, an HTTP/2 visitor who cancels its stream to an h2c upstream", slugs: ["client-closed-request"], status: 200) {
            try withHTTP2Upstream(reset: false) { port in
                try Reproduce.caddy(site: "\treverse_proxy h2c://127.0.0.1:\(port)\n", global: h2cVisitors, visitor: { try cancellingVisitor($0) })
            }
        },
        // The visitor grants no room past HTTP/2's first 64 KiB, so Caddy is writing to it,
        // not reading from the upstream, when the reset comes: the write fails (`http2: stream
        // closed`). Caught while reading, the same reset is `context canceled`.
        .init(name: "Caddy, an HTTP/2 visitor who cancels its stream during an HTTP/1.1 answer", slugs: ["client-closed-request"], status: 200) {
            try with(.streams) {
                try Reproduce.caddy(site: "\treverse_proxy 127.0.0.1:\($0.port)\n", global: h2cVisitors, visitor: { try cancellingVisitor($0, stalling: true) })
            }
        },
        .init(name: "Caddy, an h2c upstream that resets its stream mid-answer", slugs: ["upstream-closed-connection"], status: 200) {
            try withHTTP2Upstream(reset: true) { port in
                try Reproduce.caddy(site: "\treverse_proxy h2c://127.0.0.1:\(port)\n", ask: ["--max-time", "2"])
            }
        },
    ]

    /// HTTP/2 without TLS from visitors, which the cancelling visitor speaks.
    private static let h2cVisitors = "servers {\n\t\tprotocols h1 h2 h2c\n\t}"

    private static let peer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("HTTP2Peer/h2peer.py").path

    /// Python's `h2` package, which make test-deps installs from PyPI.
    private static func peerEnvironment() throws -> [String: String] {
        let h2 = Repository.root.appendingPathComponent(".build-python/h2").path
        guard FileManager.default.fileExists(atPath: h2 + "/h2") else {
            throw ReproductionError(message: "Python's h2 package is not in \(h2): run make test-deps")
        }
        return ["PYTHONPATH": h2]
    }

    /// A POST whose stream the visitor resets (CANCEL) a second into the answer; `stalling`,
    /// having granted no room for more than the answer's first 64 KiB.
    private static func cancellingVisitor(_ port: Int, stalling: Bool = false) throws -> Int {
        let result = try ProcessRunner.run(
            RequiredTool.find("python3"), [peer, "client", String(port)] + (stalling ? ["stall"] : []),
            environment: ProcessInfo.processInfo.environment.merging(try peerEnvironment()) { _, new in new })
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// `body` with an h2c upstream on its port that streams its answers, or resets each
    /// stream (INTERNAL_ERROR) after the first bytes.
    private static func withHTTP2Upstream(reset: Bool, _ body: (Int) throws -> Outcome) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let port = LoopbackPort.free()
        let upstream = try ServerProcess(
            "python3", [peer, "upstream", String(port)] + (reset ? ["reset"] : []), environment: try peerEnvironment(),
            log: folder.url.appendingPathComponent("upstream.log"))
        defer { upstream.stop() }
        guard LoopbackPort.waitUntilOpen(port, while: { upstream.isRunning }) else {
            throw ReproductionError(message: "the h2c upstream did not start: \(upstream.log)")
        }
        return try body(port)
    }
}
