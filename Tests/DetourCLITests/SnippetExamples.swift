import DetourTestSupport
import Foundation
import XCTest

/// `detour snippet <server> --example` written for a built site, checked with the server's own
/// test, and run as its first lines tell users to, on 127.0.0.1; `stopAll` stops them by PID.
final class SnippetExamples {
    /// How each server checks and runs its example, and what it answers for a dead upstream.
    struct Server: Sendable {
        var name: String
        var deadUpstreamStatus: Int
        var tool: String
        /// The request ID the server puts on the page and in X-Request-ID: Varnish's is the
        /// number of the transaction that made the page.
        var requestID = #"^[A-Za-z0-9@_:-]{8,}$"#
        var validate: @Sendable (_ config: String, _ state: String) -> [String]
        var run: @Sendable (_ config: String, _ state: String, _ listen: String) -> [String]

        init(
            name: String, deadUpstreamStatus: Int, tool: String, requestID: String? = nil, validate: @escaping @Sendable (String, String) -> [String],
            run: @escaping @Sendable (String, String, String) -> [String]
        ) {
            (self.name, self.deadUpstreamStatus, self.tool, self.validate, self.run) = (name, deadUpstreamStatus, tool, validate, run)
            if let requestID { self.requestID = requestID }
        }
    }

    /// nginx and Caddy answer a dead upstream with 502; HAProxy, Apache and Varnish with 503.
    static let servers: [String: Server] = [
        "nginx": Server(
            name: "nginx", deadUpstreamStatus: 502, tool: "nginx",
            validate: { ["-t", "-p", $1 + "/", "-c", $0] }, run: { config, state, _ in ["-p", state + "/", "-c", config, "-g", "daemon off;"] }),
        "caddy": Server(
            name: "caddy", deadUpstreamStatus: 502, tool: "caddy",
            validate: { config, _ in ["validate", "--config", config, "--adapter", "caddyfile"] },
            run: { config, _, _ in ["run", "--config", config, "--adapter", "caddyfile"] }),
        "haproxy": Server(
            name: "haproxy", deadUpstreamStatus: 503, tool: "haproxy",
            validate: { config, _ in ["-c", "-f", config] }, run: { config, _, _ in ["-f", config, "-db"] }),
        "apache": Server(
            name: "apache", deadUpstreamStatus: 503, tool: "apache2",
            validate: { config, _ in ["-t", "-f", config] }, run: { config, _, _ in ["-f", config, "-DFOREGROUND"] }),
        // varnishd takes its address on the command line; -C compiles the VCL and stops.
        "varnish": Server(
            name: "varnish", deadUpstreamStatus: 503, tool: "varnishd", requestID: #"^[1-9][0-9]*$"#,
            validate: { config, state in ["-C", "-f", config, "-n", state + "/varnish-check"] },
            run: { config, state, listen in ["-F", "-a", listen, "-f", config, "-n", state + "/varnish"] }),
    ]

    let site: TemporaryFolder
    private var running: [ServerProcess] = []
    /// The servers by the port they listen on.
    private var byPort: [Int: ServerProcess] = [:]

    init(site: TemporaryFolder) {
        self.site = site
    }

    /// Starts `name`'s example in front of `upstream` and waits for its port.
    func start(_ name: String, upstream: Int) throws -> Int {
        let listen = LoopbackPort.free()
        let (config, state) = try example(name, upstream: upstream, listen: listen)
        return try run(name, config: config, state: state, listen: listen)
    }

    /// Checks a written example with the server's own test, runs it and waits for its port.
    func run(_ name: String, config: String, state: String, listen: Int = LoopbackPort.free()) throws -> Int {
        let server = try XCTUnwrap(Self.servers[name])
        let environment = ["HOME": state, "XDG_DATA_HOME": state, "XDG_CONFIG_HOME": state]
        let check = try ProcessRunner.run(
            try RequiredTool.find(server.tool), server.validate(config, state),
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new })
        let written = (try? String(contentsOfFile: config, encoding: .utf8)) ?? ""
        XCTAssertEqual(check.status, 0, "\(server.tool) refuses the example:\n\(check.stderr)\n\(written)")
        let process = try ServerProcess(
            server.tool, server.run(config, state, "127.0.0.1:\(listen)"), environment: environment, log: URL(fileURLWithPath: state + "/server.log"))
        running.append(process)
        byPort[listen] = process
        XCTAssertTrue(LoopbackPort.waitUntilOpen(listen), "\(server.tool) did not start: \(process.log)")
        return listen
    }

    /// The example for `upstream`, written into a state folder of its own.
    func example(_ name: String, upstream: Int, listen: Int = 8080) throws -> (config: String, state: String) {
        let state = site.path + "/state-\(name)-\(upstream)"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let snippet = try ProcessRunner.detour(
            [
                "snippet", name, "--example", "--listen", "127.0.0.1:\(listen)", "--upstream", "127.0.0.1:\(upstream)",
                "--state", state, "--install-path", site.path + "/public",
            ], in: site.url)
        XCTAssertEqual(snippet.status, 0, snippet.stderr)
        let config = state + "/\(name).conf"
        try snippet.stdout.write(toFile: config, atomically: true, encoding: .utf8)
        return (config, state)
    }

    /// Stops the server on `port` and waits until the port is closed, not for the process:
    /// `stopAll` reaps it (see there).
    func stop(port: Int) {
        guard let process = byPort[port] else { return }
        kill(process.pid, SIGTERM)
        XCTAssertTrue(Poll.until { !LoopbackPort.isOpen(port) }, "the server on \(port) stopped")
    }

    /// The last started first: while varnishd runs, its jailed manager keeps Foundation from
    /// reaping the other servers, so waiting for one of them would never end.
    func stopAll() {
        running.reversed().forEach { $0.stop() }
        running = []
    }
}
