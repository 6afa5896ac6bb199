import DetourTestSupport
import Foundation

/// A configuration the server refuses: each server's own test on a broken file (no server
/// runs: status -1), nginx started on one, on a port in use, and reloaded with one while it
/// serves (the old configuration goes on: 200).
extension LogReproduction {
    /// What `tool` with `arguments` prints when it tests `files` (written to a scratch folder,
    /// `DIR` in them and in the arguments standing for it), as an operator sees it in a terminal
    /// or a deploy log.
    private static func configTest(_ tool: String, _ arguments: [String], files: [String: String], environment: [String: String] = [:]) throws
        -> Outcome
    {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(files.mapValues { $0.replacingOccurrences(of: "DIR", with: folder.path) })
        var environment = environment.mapValues { $0.replacingOccurrences(of: "DIR", with: folder.path) }
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"]
        let result = try ProcessRunner.run(
            try RequiredTool.find(tool), arguments.map { $0.replacingOccurrences(of: "DIR", with: folder.path) }, in: folder.url, environment: environment)
        return .init(status: result.status == 0 ? 200 : -1, log: result.stdout + result.stderr)
    }

    /// `caddy validate` of a Caddyfile with one site, whose directives are `site`.
    private static func caddyValidate(_ site: String) throws -> Outcome {
        try configTest(
            "caddy", ["validate", "--config", "DIR/Caddyfile", "--adapter", "caddyfile"],
            files: ["Caddyfile": "http://127.0.0.1:\(LoopbackPort.free()) {\n\(site)}\n"],
            environment: ["HOME": "DIR", "XDG_DATA_HOME": "DIR", "XDG_CONFIG_HOME": "DIR"])
    }

    private static let nginxTemporaryPaths =
        "client_body_temp_path DIR/body; proxy_temp_path DIR/proxy; fastcgi_temp_path DIR/fastcgi; uwsgi_temp_path DIR/uwsgi; scgi_temp_path DIR/scgi;"

    /// `nginx -t` of one server on a free port (`listen` after its address), with `lines` before
    /// a location that proxies.
    private static func nginxTest(listen: String, lines: [String]) throws -> Outcome {
        let server = (["listen 127.0.0.1:\(LoopbackPort.free())\(listen);"] + lines + ["location / { proxy_pass http://127.0.0.1:8080; }"])
            .map { "        " + $0 }.joined(separator: "\n")
        return try configTest(
            "nginx", ["-t", "-p", "DIR/", "-c", "DIR/nginx.conf", "-e", "/dev/null"],
            files: ["nginx.conf": "events {}\nhttp {\n    \(nginxTemporaryPaths)\n    server {\n\(server)\n    }\n}\n"])
    }

    static let configuration: [LogReproduction] = [
        .init(name: "nginx -t, proxy_busy_buffers_size past the buffers", slugs: ["configuration-refused"], status: -1) {
            try nginxTest(listen: "", lines: ["proxy_buffers 4 4k;", "proxy_busy_buffers_size 64k;"])
        },
        .init(name: "nginx -t, a listen ... ssl without a certificate", slugs: ["configuration-refused"], status: -1) {
            try nginxTest(listen: " ssl", lines: ["server_name shop.example.com;"])
        },
        .init(name: "nginx, a start with a directive it does not know", slugs: ["configuration-refused"], status: -1) {
            try Reproduce.nginx(location: "location / { retrun 200; }")
        },
        .init(name: "nginx, a start on a port another process holds", slugs: ["configuration-refused"], status: -1) {
            // Its only listener is the port in use: nginx tries five times, half a second apart, and exits.
            try with(.answers) { upstream in
                try Reproduce.nginx("server { listen 127.0.0.1:\(upstream.port); location / { return 200; } }") { port in
                    try Visitor.status("http://127.0.0.1:\(port)/")
                }
            }
        },
        .init(name: "nginx, a reload with a directive it does not know: the old configuration serves", slugs: ["configuration-refused"], status: 200) {
            let port = LoopbackPort.free()
            let site = { (directive: String) in
                NginxServer.httpBlock("server { listen 127.0.0.1:\(port); location / { \(directive) 200 \"served\"; } }")
            }
            let nginx = try NginxServer(config: "error_log {{PREFIX}}/error.log info;\n" + site("return"))
            defer { nginx.stop() }
            guard LoopbackPort.waitUntilOpen(port) else { return .init(status: -1, log: nginx.errorLog) }
            try nginx.folder.write([
                "nginx.conf": ("error_log {{PREFIX}}/error.log info;\n" + site("retrun")).replacingOccurrences(of: "{{PREFIX}}", with: nginx.folder.path)
            ])
            // nginx listens before it writes its pid file.
            _ = Poll.until(timeout: 5) { (try? nginx.folder.read("nginx.pid"))?.isEmpty == false }
            let pid = try masterPID(nginx.folder.read("nginx.pid"))
            kill(pid, SIGHUP)
            usleep(500_000)
            let status = try Visitor.status("http://127.0.0.1:\(port)/")
            return .init(status: status, log: nginx.errorLog)
        },
        .init(name: "apache2 -t, a directive of a module not loaded", slugs: ["configuration-refused"], status: -1) {
            try configTest(
                "apache2", ["-t", "-f", "DIR/apache.conf"],
                files: [
                    "apache.conf":
                        "ServerRoot DIR\nListen 127.0.0.1:\(LoopbackPort.free())\nLoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so\nProxyPass / http://127.0.0.1:8080/\n"
                ])
        },
        .init(name: "Apache, a balancer without the shared memory it needs", slugs: ["configuration-refused"], status: -1) {
            try Reproduce.apache(
                "<Proxy balancer://app>\n    BalancerMember http://127.0.0.1:8080\n</Proxy>\nProxyPass / balancer://app/",
                modules: Reproduce.apacheModules + ["proxy_balancer", "lbmethod_byrequests"])
        },
        .init(name: "Apache, ProxyPass to a scheme whose module is not loaded", slugs: ["apache-mod-proxy-errors"], status: 500) {
            try Reproduce.apache("ProxyPass / http://127.0.0.1:8080/", modules: ["mpm_event", "authz_core", "proxy"])
        },
        // HAProxy runs in the foreground and exits at once: its one listener's port is taken.
        .init(name: "HAProxy, a start on a port another process holds", slugs: ["configuration-refused"], status: -1) {
            try with(.answers) { holder in
                try configTest(
                    "haproxy", ["-f", "DIR/haproxy.cfg"],
                    files: [
                        "haproxy.cfg":
                            "defaults\n    mode http\n    timeout connect 1s\n    timeout client 1s\n    timeout server 1s\nfrontend web\n    bind 127.0.0.1:\(holder.port)\n    default_backend app\nbackend app\n    server app1 127.0.0.1:\(LoopbackPort.free())\n"
                    ])
            }
        },
        .init(name: "haproxy -c, a keyword misspelled", slugs: ["configuration-refused"], status: -1) {
            try configTest(
                "haproxy", ["-c", "-f", "DIR/haproxy.cfg"],
                files: [
                    "haproxy.cfg":
                        "defaults\n    mode http\n    timeout connect 1s\n    timeout client 1s\n    timeout server 1s\nfrontend web\n    bind 127.0.0.1:\(LoopbackPort.free())\n    default_backend app\nbackend app\n    sever app1 127.0.0.1:8080\n"
                ])
        },
        .init(name: "php-fpm8.2 -t, a pool without children", slugs: ["configuration-refused"], status: -1) {
            try configTest(
                "php-fpm8.2", ["-t", "-y", "DIR/php-fpm.conf"],
                files: [
                    "php-fpm.conf":
                        "[global]\nerror_log = /dev/stderr\n[www]\nuser = nobody\ngroup = nogroup\nlisten = DIR/php.sock\npm = static\npm.max_children = 0\n"
                ])
        },
        // Debian's unit reloads PHP-FPM with USR2: the master runs itself again on the new
        // files and, refused, is gone; nginx in front finds no PHP-FPM.
        .init(
            name: "PHP-FPM reloaded with a pool it refuses: it stops, nginx answers 502", slugs: ["configuration-refused", "php-fpm-socket-unavailable"],
            status: 502, runnable: getuid() == 0
        ) {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            chmod(folder.path, 0o755)
            let pool = { (children: Int) in
                "[global]\nerror_log = \(folder.path)/fpm.log\n[www]\nuser = nobody\ngroup = nogroup\nlisten = \(folder.path)/php.sock\nlisten.mode = 0666\npm = static\npm.max_children = \(children)\n"
            }
            try folder.write(["php-fpm.conf": pool(1)])
            let fpm = try ServerProcess("php-fpm8.2", ["-F", "-y", folder.path + "/php-fpm.conf"], log: folder.url.appendingPathComponent("stderr.log"))
            defer { fpm.stop() }
            let started = Date()
            while !FileManager.default.fileExists(atPath: folder.path + "/php.sock"), Date().timeIntervalSince(started) < 5 { usleep(20_000) }
            try folder.write(["php-fpm.conf": pool(0)])
            kill(fpm.pid, SIGUSR2)
            while fpm.isRunning, Date().timeIntervalSince(started) < 10 { usleep(20_000) }
            var outcome = try Reproduce.nginx(location: "location / { fastcgi_pass unix:\(folder.path)/php.sock; }")
            outcome.log += ((try? folder.read("fpm.log")) ?? "") + fpm.log
            return outcome
        },
        .init(name: "PHP-FPM, a port another process holds", slugs: ["configuration-refused"], status: -1) {
            try with(.answers) { holder in
                let folder = try TemporaryFolder()
                defer { folder.remove() }
                try folder.write([
                    "php-fpm.conf":
                        "[global]\nerror_log = /dev/stderr\ndaemonize = no\n[www]\nlisten = 127.0.0.1:\(holder.port)\npm = static\npm.max_children = 1\n"
                ])
                let fpm = try ServerProcess(
                    "php-fpm8.2", ["-R", "-n", "-y", folder.path + "/php-fpm.conf"], log: folder.url.appendingPathComponent("stderr.log"))
                defer { fpm.stop() }
                let started = Date()
                while fpm.isRunning, Date().timeIntervalSince(started) < 10 { usleep(20_000) }
                return .init(status: -1, log: fpm.log)
            }
        },
        .init(name: "gunicorn, a port another process holds", slugs: ["configuration-refused"], status: -1) {
            try with(.answers) { holder in
                try pythonServerThatExits(app: "def application(environ, start_response):\n    return []\n", port: holder.port) { _, log in
                    .init(status: -1, log: log())
                }
            }
        },
        // 192.0.2.0/24 is kept for documentation: no machine has it.
        .init(name: "gunicorn, a bind address this machine does not have", slugs: ["configuration-refused"], status: -1) {
            try pythonServerThatExits(
                "gunicorn", { folder, _ in ["--chdir", folder, "--bind", "192.0.2.7:8000", "--workers", "1", "app:application"] },
                app: "def application(environ, start_response):\n    return []\n"
            ) { _, log in .init(status: -1, log: log()) }
        },
        .init(name: "caddy validate, a setting it parses but cannot use", slugs: ["configuration-refused"], status: -1) {
            try caddyValidate("\treverse_proxy 127.0.0.1:8080 127.0.0.1:8081 {\n\t\tlb_policy random_choose 1\n\t}\n")
        },
        .init(name: "caddy validate, a subdirective misspelled", slugs: ["configuration-refused"], status: -1) {
            try caddyValidate("\treverse_proxy 127.0.0.1:8080 {\n\t\tlb_polcy first\n\t}\n")
        },
        // Upstream addresses the Caddyfile's parser refuses: a scheme against its port, a path,
        // a placeholder beside a scheme.
        .init(name: "caddy validate, an http:// upstream on port 443", slugs: ["configuration-refused"], status: -1) {
            try caddyValidate("\treverse_proxy http://127.0.0.1:443\n")
        },
        .init(name: "caddy validate, an upstream URL with a path", slugs: ["configuration-refused"], status: -1) {
            try caddyValidate("\treverse_proxy http://127.0.0.1:8080/app\n")
        },
        .init(name: "caddy validate, a placeholder in an upstream URL with a scheme", slugs: ["configuration-refused"], status: -1) {
            try caddyValidate("\treverse_proxy http://{host}:8080\n")
        },
        // Files the HTTP transport reads as it is provisioned, not per request.
        .init(name: "caddy validate, a client certificate file that is not there", slugs: ["configuration-refused"], status: -1) {
            try caddyValidate(
                "\treverse_proxy https://127.0.0.1:8443 {\n\t\ttransport http {\n\t\t\ttls_client_auth DIR/client.crt DIR/client.key\n\t\t}\n\t}\n")
        },
        .init(name: "caddy validate, a CA certificate file that is not there", slugs: ["configuration-refused"], status: -1) {
            try caddyValidate("\treverse_proxy https://127.0.0.1:8443 {\n\t\ttransport http {\n\t\t\ttls_trusted_ca_certs DIR/ca.crt\n\t\t}\n\t}\n")
        },
    ]

    /// The number in nginx's pid file.
    private static func masterPID(_ text: String) throws -> pid_t {
        guard let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw ReproductionError(message: "nginx.pid: \(text)") }
        return pid
    }
}
