import DetourTestSupport
import Foundation

/// Failures of the proxy host's own network, each server in a network namespace of its own (see
/// `PrivateNetwork`), which needs root, as CI has: an upstream the kernel has no route to (113:
/// No route to host), a host that is down or a firewall rejecting with `icmp-host-prohibited`;
/// and no local port or address to connect from (99: Cannot assign requested address), for
/// which an address to bind to that no interface holds needs no namespace.
extension LogReproduction {
    private static let unroutable = "\(PrivateNetwork.unreachableHost):8080"
    /// Nothing listens there; with no local port or address the connect fails before it is tried.
    private static let local = "127.0.0.1:8080"

    static let network: [LogReproduction] = [
        .init(name: "nginx, no route to the upstream's host", slugs: ["upstream-connection-refused"], status: 502, runnable: getuid() == 0) {
            try nginx(upstream: unroutable)
        },
        .init(name: "Apache, no route to the backend's host", slugs: ["upstream-connection-refused"], status: 503, runnable: getuid() == 0) {
            try apache(upstream: unroutable)
        },
        .init(name: "Caddy, no route to the upstream's host", slugs: ["upstream-connection-refused"], status: 502, runnable: getuid() == 0) {
            try caddy(upstream: unroutable)
        },
        .init(name: "nginx, no local port left", slugs: ["cannot-assign-requested-address"], status: 502, runnable: getuid() == 0) {
            try nginx(upstream: local, shortage: .localPorts)
        },
        .init(name: "nginx, an IPv6 upstream and no IPv6", slugs: ["cannot-assign-requested-address"], status: 502, runnable: getuid() == 0) {
            try nginx(upstream: "[::1]:8080", shortage: .ipv6)
        },
        .init(name: "Apache, no local port left", slugs: ["cannot-assign-requested-address"], status: 503, runnable: getuid() == 0) {
            try apache(upstream: local, shortage: .localPorts)
        },
        .init(name: "Caddy, no local port left", slugs: ["cannot-assign-requested-address"], status: 502, runnable: getuid() == 0) {
            try caddy(upstream: local, shortage: .localPorts)
        },
        // HAProxy 2.6 ends the request as it ends a refused one (SC--, not RC--): its line alone
        // cannot tell the two apart, the alert before it can.
        .init(
            name: "HAProxy, no local port left", slugs: ["cannot-assign-requested-address", "upstream-connection-refused"], status: 503,
            runnable: getuid() == 0
        ) {
            try haproxy(upstream: local, shortage: .localPorts)
        },
        // An address to connect from that no interface holds (192.0.2.1, TEST-NET-1): no
        // namespace needed, the bind fails before anything is sent.
        .init(name: "nginx, proxy_bind to an address the host does not have", slugs: ["cannot-assign-requested-address"], status: 500) {
            try Reproduce.nginx(location: "location / { proxy_bind 192.0.2.1; proxy_pass http://\(local); }")
        },
        .init(
            name: "HAProxy, a source address the host does not have", slugs: ["cannot-assign-requested-address", "upstream-connection-refused"],
            status: 503
        ) {
            try Reproduce.haproxy(server: "\(local) source 192.0.2.1")
        },
        .init(name: "Varnish, no local port left", slugs: ["cannot-assign-requested-address"], status: 503, runnable: getuid() == 0) {
            try varnish(upstream: local, shortage: .localPorts)
        },
    ]

    private static func nginx(upstream: String, shortage: PrivateNetwork.Shortage = .none) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let port = LoopbackPort.free()
        let config = NginxServer.httpBlock("server { listen 127.0.0.1:\(port); location / { proxy_pass http://\(upstream); } }")
        try folder.write(["nginx.conf": config.replacingOccurrences(of: "{{PREFIX}}", with: folder.path)])
        let nginx = try RequiredTool.find("nginx").path
        let status = try PrivateNetwork.ask(
            [
                nginx, "-p", folder.path + "/", "-c", folder.path + "/nginx.conf", "-e", folder.path + "/error.log", "-g",
                "daemon off; pid \(folder.path)/nginx.pid;",
            ], port: port, log: folder.path + "/server.log", shortage: shortage)
        return .init(status: status, log: (try? folder.read("error.log")) ?? "")
    }

    private static func apache(upstream: String, shortage: PrivateNetwork.Shortage = .none) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let port = LoopbackPort.free()
        try folder.write([
            "apache.conf": Reproduce.apacheConfig(folder: folder.path, port: port, root: folder.path, directives: "ProxyPass / http://\(upstream)/")
        ])
        let apache = try RequiredTool.find("apache2").path
        let status = try PrivateNetwork.ask(
            [apache, "-f", folder.path + "/apache.conf", "-DFOREGROUND"], port: port, log: folder.path + "/server.log", shortage: shortage)
        return .init(status: status, log: ((try? folder.read("error.log")) ?? "") + ((try? folder.read("server.log")) ?? ""))
    }

    private static func caddy(upstream: String, shortage: PrivateNetwork.Shortage = .none) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let port = LoopbackPort.free()
        try folder.write(["Caddyfile": Reproduce.caddyfile(port: port, site: Reproduce.caddySite(upstream: upstream))])
        let environment = Reproduce.caddyEnvironment(folder).map { "\($0.key)=\($0.value)" }.sorted()
        let caddy = try RequiredTool.find("caddy").path
        let status = try PrivateNetwork.ask(
            ["/usr/bin/env"] + environment + [caddy, "run", "--config", folder.path + "/Caddyfile", "--adapter", "caddyfile"], port: port,
            log: folder.path + "/server.log", shortage: shortage)
        return .init(status: status, log: (try? folder.read("server.log")) ?? "")
    }

    private static func haproxy(upstream: String, shortage: PrivateNetwork.Shortage) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let port = LoopbackPort.free()
        try folder.write(["haproxy.cfg": Reproduce.haproxyConfig(port: port, backends: "backend app\n    server app1 \(upstream)")])
        let haproxy = try RequiredTool.find("haproxy").path
        // Its log target is its standard output; the alerts it also writes to its standard
        // error are left out, as a daemon's are.
        let status = try PrivateNetwork.ask(
            ["/bin/bash", "-c", "exec \"$@\" 2>/dev/null", "haproxy", haproxy, "-f", folder.path + "/haproxy.cfg", "-db"], port: port,
            log: folder.path + "/server.log", shortage: shortage)
        return .init(status: status, log: (try? folder.read("server.log")) ?? "")
    }

    private static func varnish(upstream: String, shortage: PrivateNetwork.Shortage) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let port = LoopbackPort.free()
        let address = upstream.split(separator: ":")
        try folder.write(["default.vcl": "vcl 4.1;\nbackend default { .host = \"\(address[0])\"; .port = \"\(address[1])\"; }\n"])
        let name = folder.path + "/varnish"
        let varnishd = try RequiredTool.find("varnishd").path
        let varnishlog = try RequiredTool.find("varnishlog").path
        // varnishd's own output stays out of the log: varnishlog's records are what is read.
        let status = try PrivateNetwork.ask(
            [varnishd, "-F", "-a", "127.0.0.1:\(port)", "-f", folder.path + "/default.vcl", "-n", name], port: port,
            log: folder.path + "/varnishd.log", shortage: shortage,
            report: ([varnishlog, "-d", "-n", name, "-i", "FetchError"], folder.path + "/varnishlog.log"))
        return .init(status: status, log: (try? folder.read("varnishlog.log")) ?? "")
    }
}
