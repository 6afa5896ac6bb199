import DetourTestSupport
import Foundation

/// HAProxy sessions ended by something other than the request's own failure: a visitor who
/// leaves while the server thinks or while queued (`CH--`, `CQ--`, or `sH--` without `option
/// abortonclose`) or halfway through the body (`CD--`), a server that falls silent halfway
/// through its body (`sD--`), an operator's `shutdown sessions` on the stats socket (`K`), and
/// a server set down under `on-marked-down shutdown-sessions` (`D`), each while the server
/// thinks (`…H--`, 502) or halfway through its body (`…D--`, the server's 200 cut short); and
/// the configuration's own answers, no server asked: a deny rule (`PR--`), a redirect (`LR--`),
/// and a host no `use_backend` rule claims in a frontend without `default_backend` (`SC--`).
extension LogReproduction {
    static let haproxySessions: [LogReproduction] = [
        .init(name: "HAProxy, a host no use_backend rule claims and no default_backend", slugs: ["wrong-site-answers"], status: 503) {
            try Reproduce.haproxy(server: "127.0.0.1:\(LoopbackPort.free())", frontend: "use_backend app if { req.hdr(host) -i app.example }")
        },
        .init(name: "HAProxy, an http-request deny rule", slugs: ["forbidden-by-configuration"], status: 403) {
            try Reproduce.haproxy(server: "127.0.0.1:\(LoopbackPort.free())", frontend: "http-request deny\n    default_backend app")
        },
        .init(name: "HAProxy, an http-request redirect", slugs: [], status: 302) {
            try Reproduce.haproxy(server: "127.0.0.1:\(LoopbackPort.free())", frontend: "http-request redirect location /moved\n    default_backend app")
        },
        .init(name: "HAProxy, a server that falls silent in the middle of its body", slugs: ["upstream-timed-out"], status: 200) {
            try with(.stallsMidBody) { try Reproduce.haproxy(server: "127.0.0.1:\($0.port)") }
        },
        // A visitor who leaves halfway through a download: `CD--` with the server's 200, nothing
        // to explain. (From a server that has stopped sending, HAProxy waits for `timeout
        // server` and logs `sD--` instead: it notices the visitor left only when it writes.)
        .init(name: "HAProxy, a visitor who leaves in the middle of a download", slugs: [], status: 200) {
            try with(.streams) { upstream in
                let outcome = try leaves(upstream, defaults: "")
                guard outcome.log.contains(" 200 ") && outcome.log.contains(" CD-- ") else {
                    throw ReproductionError(message: "no CD-- line with 200\n\(outcome.log)")
                }
                return outcome
            }
        },
        // A visitor who leaves while the server thinks: with `option abortonclose` HAProxy ends
        // the session at once (`CH--`); without it, it waits for the server until `timeout
        // server` and logs `sH--` and 504, as if the visitor had waited.
        .init(name: "HAProxy with abortonclose, a visitor who leaves while the server thinks", slugs: ["client-closed-request"], status: 0) {
            try with(.silent) { try leaves($0, defaults: "option abortonclose") }
        },
        .init(name: "HAProxy without abortonclose, a visitor who leaves while the server thinks", slugs: ["upstream-timed-out"], status: 0) {
            try with(.silent) { try leaves($0, defaults: "") }
        },
        // The same while the request waits in the queue (the server's one connection held by
        // another visitor, whose answer times out): `CQ--`.
        .init(
            name: "HAProxy with abortonclose, a visitor who leaves while queued", slugs: ["client-closed-request", "upstream-timed-out"], status: 0
        ) {
            try with(.silent) {
                try Reproduce.haproxy(
                    server: "127.0.0.1:\($0.port) maxconn 1", defaults: "option abortonclose\n    timeout queue 5s", concurrent: 2,
                    options: ["--max-time", "0.5"])
            }
        },
        .init(name: "HAProxy, an operator's shutdown sessions while the server thinks", slugs: [], status: 502) {
            try with(.silent) { try cut($0, by: "shutdown sessions server app/app1") }
        },
        .init(name: "HAProxy, an operator's shutdown sessions during the body", slugs: [], status: 200) {
            try with(.stallsMidBody) { try cut($0, by: "shutdown sessions server app/app1") }
        },
        .init(name: "HAProxy, a server put in maintenance while it thinks", slugs: ["health-checks-mark-all-backends-down"], status: 502) {
            try with(.silent) { try cut($0, by: "disable server app/app1") }
        },
        .init(name: "HAProxy, a server set down during the body", slugs: ["health-checks-mark-all-backends-down"], status: 200) {
            try with(.stallsMidBody) { try cut($0, by: "set server app/app1 health down") }
        },
    ]

    /// HAProxy proxying to `upstream` with `defaults`, asked by a visitor who gives up after half
    /// a second; its log once it has the request's line.
    private static func leaves(_ upstream: FakeUpstream, defaults: String) throws -> Outcome {
        try Reproduce.haproxy(server: "127.0.0.1:\(upstream.port)", defaults: defaults) { port, haproxy in
            let status = try Visitor.status("http://127.0.0.1:\(port)/", seconds: 0.5)
            _ = Poll.until(timeout: 5) { haproxy.log.contains("\"GET / HTTP/1.1\"") }
            return status
        }
    }

    /// HAProxy with an admin stats socket, proxying to `upstream` with `on-marked-down
    /// shutdown-sessions`, asked once; `command` goes to the stats socket once the upstream has
    /// the request (and a moment more, for its answer to be on its way).
    private static func cut(_ upstream: FakeUpstream, by command: String) throws -> Outcome {
        let sockets = try TemporaryFolder()
        defer { sockets.remove() }
        let socket = sockets.path + "/admin.sock"
        return try Reproduce.haproxy(
            server: "127.0.0.1:\(upstream.port) on-marked-down shutdown-sessions", global: "stats socket \(socket) level admin", serverTimeout: "5s"
        ) { port, haproxy in
            let asked = DispatchGroup()
            nonisolated(unsafe) var status = 0
            DispatchQueue.global().async(group: asked) { status = (try? Visitor.status("http://127.0.0.1:\(port)/")) ?? 0 }
            guard upstream.waitUntilReceived(1) else { throw ReproductionError(message: "the request never reached the upstream\n\(haproxy.log)") }
            usleep(300_000)
            guard UnixSocketAddress.exchange(socket, command + "\n") != nil else { throw ReproductionError(message: "no stats socket at \(socket)") }
            asked.wait()
            usleep(200_000)
            return status
        }
    }
}
