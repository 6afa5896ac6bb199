import DetourTestSupport
import Foundation
import XCTest

/// One failure an article explains, made to happen on a real server on 127.0.0.1: what the
/// visitor got and what the servers involved wrote to their logs.
struct LogReproduction: Sendable {
    struct Outcome {
        var status: Int
        var log: String
    }

    var name: String
    /// The articles `detour diagnose` must send the logged lines to, and no other; the first
    /// is the one about the failure, which must name the status visitors get.
    var slugs: [String]
    /// What the visitor gets, as the article says; 0 when the answer is not HTTP at all and
    /// -1 when the server did not start.
    var status: Int
    /// Whether it can run here (some need root, as CI has).
    var runnable: Bool = true
    var run: @Sendable () throws -> Outcome
}

/// A reproduction that could not be set up (not a failure it reproduces).
struct ReproductionError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// How a reproduction asks: the status a client like a browser gets (`0` when the answer is not
/// HTTP at all), through curl, which also speaks HTTP/2 without TLS and WebSocket's handshake.
enum Visitor {
    static func status(_ url: String, _ options: [String] = [], seconds: Double = 8) throws -> Int {
        let curl = try RequiredTool.find("curl")
        let result = try ProcessRunner.run(
            curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", String(seconds)] + options + [url], in: URL(fileURLWithPath: "/tmp"))
        return Int(result.stdout.trimmingCharacters(in: .whitespaces)) ?? 0
    }

    /// The status of the last of `holders + 1` visitors asking `url` a fifth of a second apart,
    /// the earlier ones still waiting for their answers (holding the server's connections or
    /// workers) when it asks; it returns once all have their answers.
    static func status(_ url: String, _ options: [String] = [], after holders: Int) throws -> Int {
        let holding = DispatchGroup()
        for _ in 0..<max(holders, 0) {
            DispatchQueue.global().async(group: holding) { _ = try? status(url) }
            usleep(200_000)
        }
        let last = try status(url, options)
        holding.wait()
        return last
    }

    static let webSocket = [
        "-H", "Connection: Upgrade", "-H", "Upgrade: websocket", "-H", "Sec-WebSocket-Version: 13", "-H", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    ]
}

/// Starts each server the way the reproductions need it and hands back its log.
enum Reproduce {
    /// nginx with `servers` in `http` (`PORT` becomes its port), logging at `info` so lines
    /// nginx writes below `error` (a client that left, an idle WebSocket) are there too.
    static func nginx(_ servers: String, workerConnections: Int = 64, ask: (Int) throws -> Int) throws -> LogReproduction.Outcome {
        try nginx(servers, workerConnections: workerConnections) { port, _ in try ask(port) }
    }

    /// The same, `ask` also given the server (to pin its workers down); `main` goes into the
    /// main context.
    static func nginx(_ servers: String, main: String = "", workerConnections: Int = 64, ask: (Int, NginxServer) throws -> Int) throws
        -> LogReproduction.Outcome
    {
        let port = LoopbackPort.free()
        let nginx = try NginxServer(
            config: "\(main)\nerror_log {{PREFIX}}/error.log info;\n"
                + NginxServer.httpBlock(servers.replacingOccurrences(of: "PORT", with: String(port)), workerConnections: workerConnections))
        defer { nginx.stop() }
        let deadline = Date().addingTimeInterval(10)
        while !LoopbackPort.isOpen(port) {
            guard nginx.isRunning, Date() < deadline else { return .init(status: -1, log: nginx.errorLog) }
            usleep(20_000)
        }
        let status = try ask(port, nginx)
        usleep(200_000)
        return .init(status: status, log: nginx.errorLog)
    }

    /// nginx with one server whose locations are `locations`, asked once for `path`.
    static func nginx(location locations: String, http: String = "", path: String = "/", options: [String] = []) throws -> LogReproduction.Outcome {
        try nginx("\(http) server { listen 127.0.0.1:PORT; proxy_read_timeout 1s; proxy_connect_timeout 1s; \(locations) }") { port in
            try Visitor.status("http://127.0.0.1:\(port)\(path)", options)
        }
    }

    /// An haproxy.cfg logging each request in the `option httplog` format to its standard
    /// output, with one frontend on `port` (`frontend`: its routing) and `backends`; `global`
    /// and `defaults` go into those sections.
    static func haproxyConfig(
        port: Int, global: String = "", defaults: String = "", serverTimeout: String = "1s", frontend: String = "default_backend app",
        backends: String, logFormat: String = "option httplog"
    )
        -> String
    {
        """
        global
            log stdout format raw local0
            \(global)
        defaults
            mode http
            log global
            \(logFormat)
            timeout connect 1s
            timeout client 5s
            timeout server \(serverTimeout)
            \(defaults)
        frontend web
            bind 127.0.0.1:\(port)
            \(frontend)
        \(backends)

        """
    }

    /// HAProxy 2.6 with one backend of one `server` line, logging each request in the
    /// `option httplog` format (or `logFormat`) to its standard output, as `log stdout` in a container does.
    /// `defaults` go into the defaults section and `frontend` into the frontend's; `settle`
    /// seconds pass before the request (for `path`, with curl's `options`), for health checks to
    /// have their say.
    static func haproxy(
        server: String, defaults: String = "", frontend: String = "default_backend app", concurrent: Int = 1, settle: Double = 0, path: String = "/",
        options: [String] = [], logFormat: String = "option httplog"
    ) throws
        -> LogReproduction.Outcome
    {
        try haproxy(server: server, defaults: defaults, frontend: frontend, logFormat: logFormat) { port, _ in
            usleep(UInt32(settle * 1_000_000))
            let status = try Visitor.status("http://127.0.0.1:\(port)\(path)", options, after: concurrent - 1)
            usleep(200_000)
            return status
        }
    }

    /// The same HAProxy, `global`, `defaults` and `frontend` in those sections and `timeout
    /// server` `serverTimeout`, asked by `ask` (given its port and the running server) for the
    /// status the visitor gets; its log once `ask` returns.
    static func haproxy(
        server: String, global: String = "", defaults: String = "", frontend: String = "default_backend app", serverTimeout: String = "1s",
        logFormat: String = "option httplog", ask: (Int, ServerProcess) throws -> Int
    ) throws -> LogReproduction.Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let port = LoopbackPort.free()
        try folder.write([
            "haproxy.cfg": haproxyConfig(
                port: port, global: global, defaults: defaults, serverTimeout: serverTimeout, frontend: frontend,
                backends: "backend app\n    server app1 \(server)", logFormat: logFormat)
        ])
        let haproxy = try ServerProcess("haproxy", ["-f", folder.path + "/haproxy.cfg", "-db"], log: folder.url.appendingPathComponent("haproxy.log"))
        defer { haproxy.stop() }
        guard LoopbackPort.waitUntilOpen(port) else { return .init(status: -1, log: haproxy.log) }
        let status = try ask(port, haproxy)
        return .init(status: status, log: haproxy.log)
    }

    /// HAProxy with `sections` after its global and defaults (`PORT1`, `PORT2`… become
    /// `ports`), logging requests to its output, once every port is open.
    static func haproxy(sections: String, ports: [Int], in folder: TemporaryFolder) throws -> ServerProcess {
        var config = "global\n    log stdout format raw local0\ndefaults\n    mode http\n    log global\n    option httplog\n"
        config += "    timeout connect 1s\n    timeout client 5s\n    timeout server 5s\n" + sections
        for (index, port) in ports.enumerated().reversed() { config = config.replacingOccurrences(of: "PORT\(index + 1)", with: String(port)) }
        try folder.write(["haproxy.cfg": config])
        let haproxy = try ServerProcess("haproxy", ["-f", folder.path + "/haproxy.cfg", "-db"], log: folder.url.appendingPathComponent("haproxy.log"))
        for port in ports { XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { haproxy.isRunning }), haproxy.log) }
        return haproxy
    }

    /// Caddy 2.6 proxying to `upstream` with one-second dial and response-header timeouts and
    /// `options` (more `reverse_proxy` subdirectives) and `global` options, asked for `path`
    /// after `settle` seconds with curl's `ask`.
    static func caddy(upstream: String, options: String = "", global: String = "", settle: Double = 0, path: String = "/", ask: [String] = []) throws
        -> LogReproduction.Outcome
    {
        try caddy(site: caddySite(upstream: upstream, options: options), global: global, settle: settle, path: path, ask: ask)
    }

    /// `reverse_proxy` to `upstream` with one-second dial and response-header timeouts and
    /// `options`.
    static func caddySite(upstream: String, options: String = "") -> String {
        "\treverse_proxy \(upstream) {\n\t\t\(options)\n\t\ttransport http {\n\t\t\tdial_timeout 1s\n\t\t\tresponse_header_timeout 1s\n\t\t}\n\t}\n"
    }

    /// A Caddyfile of one site on `port` whose directives are `site`.
    static func caddyfile(port: Int, site: String, global: String = "") -> String {
        "{\n\tadmin off\n\tauto_https off\n\t\(global)\n}\nhttp://127.0.0.1:\(port) {\n\(site)}\n"
    }

    /// What Caddy needs to run from a scratch folder: its data and configuration there.
    static func caddyEnvironment(_ folder: TemporaryFolder) -> [String: String] {
        ["HOME": folder.path, "XDG_DATA_HOME": folder.path, "XDG_CONFIG_HOME": folder.path]
    }

    /// Caddy 2.6 with one site of `site` directives, asked as above.
    static func caddy(site: String, global: String = "", settle: Double = 0, path: String = "/", ask: [String] = []) throws -> LogReproduction.Outcome {
        try caddy(site: site, global: global, settle: settle) { port in try Visitor.status("http://127.0.0.1:\(port)\(path)", ask) }
    }

    /// The same, asked by `visitor` with Caddy's port; it returns the status it got.
    static func caddy(site: String, global: String = "", settle: Double = 0, visitor: (Int) throws -> Int) throws -> LogReproduction.Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let port = LoopbackPort.free()
        let caddy = try caddy(caddyfile(port: port, site: site, global: global), in: folder)
        defer { caddy.stop() }
        guard LoopbackPort.waitUntilOpen(port) else { return .init(status: -1, log: caddy.log) }
        usleep(UInt32(settle * 1_000_000))
        let status = try visitor(port)
        usleep(200_000)
        return .init(status: status, log: caddy.log)
    }

    /// Caddy 2.6 running `caddyfile`, written into `folder` with its data and logs.
    static func caddy(_ caddyfile: String, in folder: TemporaryFolder) throws -> ServerProcess {
        try folder.write(["Caddyfile": caddyfile])
        return try ServerProcess(
            "caddy", ["run", "--config", folder.path + "/Caddyfile", "--adapter", "caddyfile"], environment: caddyEnvironment(folder),
            log: folder.url.appendingPathComponent("caddy.log"))
    }

    /// Apache 2.4 (event MPM, mod_proxy with its HTTP and FastCGI handlers) with `directives`
    /// in its server config and `root` as its DocumentRoot, asked once for `path` (with curl's
    /// `options`).
    static func apache(_ directives: String, root: String? = nil, path: String = "/", options: [String] = [], modules: [String] = apacheModules) throws
        -> LogReproduction.Outcome
    {
        try apache(directives, root: root, modules: modules) { port in try Visitor.status("http://127.0.0.1:\(port)\(path)", options) }
    }

    /// The same, asked by `ask` with Apache's port; it returns the status the visitor got.
    static func apache(_ directives: String, root: String? = nil, modules: [String] = apacheModules, ask: (Int) throws -> Int) throws
        -> LogReproduction.Outcome
    {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = root ?? folder.path
        let port = LoopbackPort.free()
        try folder.write(["apache.conf": apacheConfig(folder: folder.path, port: port, root: root, directives: directives, modules: modules)])
        let apache = try ServerProcess("apache2", ["-f", folder.path + "/apache.conf", "-DFOREGROUND"], log: folder.url.appendingPathComponent("apache.log"))
        defer { apache.stop() }
        // Refused at start, Apache says why in its ErrorLog; it may have bound its port first,
        // and exits a moment later.
        let opened = LoopbackPort.waitUntilOpen(port, while: { apache.isRunning })
        usleep(200_000)
        guard opened, apache.isRunning else { return .init(status: -1, log: ((try? folder.read("error.log")) ?? "") + apache.log) }
        let status = try ask(port)
        usleep(200_000)
        apache.stop()
        return .init(status: status, log: ((try? folder.read("error.log")) ?? "") + apache.log)
    }

    /// The modules every reproduction's Apache loads.
    static let apacheModules = ["mpm_event", "authz_core", "proxy", "proxy_http", "proxy_fcgi"]

    /// Apache's configuration for the above: its files in `folder`, listening on `port`, with
    /// `modules`.
    static func apacheConfig(folder: String, port: Int, root: String, directives: String, modules: [String] = apacheModules) -> String {
        let modules = modules.map { "LoadModule \($0)_module /usr/lib/apache2/modules/mod_\($0).so" }.joined(separator: "\n")
        return """
            ServerRoot \(folder)
            PidFile \(folder)/apache.pid
            ErrorLog \(folder)/error.log
            Listen 127.0.0.1:\(port)
            ServerName localhost
            \(modules)
            DocumentRoot \(root)
            \(directives)

            """
    }
}
