import DetourTestSupport
import Foundation

/// An upstream the kernel has no route to (113: No route to host): a host that is down, or a
/// firewall rejecting with `icmp-host-prohibited`, on nginx, Apache and Caddy, each in a
/// network namespace of its own (see `PrivateNetwork`), which needs root, as CI has.
extension LogReproduction {
    private static let upstream = "\(PrivateNetwork.unreachableHost):8080"

    static let network: [LogReproduction] = [
        .init(name: "nginx, no route to the upstream's host", slugs: ["upstream-connection-refused"], status: 502, runnable: getuid() == 0) {
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
                ], port: port, log: folder.path + "/server.log")
            return .init(status: status, log: (try? folder.read("error.log")) ?? "")
        },
        .init(name: "Apache, no route to the backend's host", slugs: ["upstream-connection-refused"], status: 503, runnable: getuid() == 0) {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let port = LoopbackPort.free()
            try folder.write([
                "apache.conf": Reproduce.apacheConfig(folder: folder.path, port: port, root: folder.path, directives: "ProxyPass / http://\(upstream)/")
            ])
            let apache = try RequiredTool.find("apache2").path
            let status = try PrivateNetwork.ask([apache, "-f", folder.path + "/apache.conf", "-DFOREGROUND"], port: port, log: folder.path + "/server.log")
            return .init(status: status, log: ((try? folder.read("error.log")) ?? "") + ((try? folder.read("server.log")) ?? ""))
        },
        .init(name: "Caddy, no route to the upstream's host", slugs: ["upstream-connection-refused"], status: 502, runnable: getuid() == 0) {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let port = LoopbackPort.free()
            try folder.write(["Caddyfile": Reproduce.caddyfile(port: port, site: Reproduce.caddySite(upstream: upstream))])
            let environment = Reproduce.caddyEnvironment(folder).map { "\($0.key)=\($0.value)" }.sorted()
            let caddy = try RequiredTool.find("caddy").path
            let status = try PrivateNetwork.ask(
                ["/usr/bin/env"] + environment + [caddy, "run", "--config", folder.path + "/Caddyfile", "--adapter", "caddyfile"], port: port,
                log: folder.path + "/server.log")
            return .init(status: status, log: (try? folder.read("server.log")) ?? "")
        },
    ]
}
