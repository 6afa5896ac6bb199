import DetourTestSupport
import Foundation

/// The reproductions with a real application server behind the proxy (PHP-FPM, gunicorn; uWSGI
/// has its own file), and the ones on HAProxy, Caddy and Apache.
extension LogReproduction {
    static let scripts = [
        "ok.php": "<?php echo 'ok';",
        "fatal.php": "<?php undefined_function();",
        "memory.php": "<?php ini_set('memory_limit', '8M'); $a = str_repeat('x', 20 * 1024 * 1024); echo 'survived';",
        "slow.php": "<?php sleep(3); echo 'slept';",
        "busy.php": "<?php sleep(7); echo 'slept';",
        "late.php": "<?php echo str_repeat('x', 10000); undefined_function();",
        "short.php": "<?php header('Content-Length: 100'); echo 'short';",
        "long.php": "<?php header('Content-Length: 2'); echo 'longer';",
        "status.php": "<?php header('Status: abc'); echo 'x';",
    ]

    /// nginx in front of a real PHP-FPM pool, asked `concurrent` times at once for `script`
    /// (made `mode` first, if given; its workers sent `signal` during the request, if given); the
    /// log is nginx's and PHP-FPM's, as an operator who reads both has it.
    private static func nginxWithPHP(_ script: String, pool: String = "", concurrent: Int = 1, mode: mode_t? = nil, killWith signal: Int32? = nil) throws
        -> Outcome
    {
        let php = try PHPFPMServer(scripts: scripts, pool: pool)
        defer { php.stop() }
        if let mode { chmod(php.documentRoot + "/" + script, mode) }
        // The workers die half a second into the request.
        if let signal {
            let master = php.pid
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { ServerProcess.signalChildren(of: master, signal) }
        }
        var outcome = try Reproduce.nginx("server { listen 127.0.0.1:PORT; \(phpLocation(php)) }") { port in
            let url = "http://127.0.0.1:\(port)/\(script)"
            let others = DispatchGroup()
            for _ in 1..<max(concurrent, 1) { DispatchQueue.global().async(group: others) { _ = try? Visitor.status(url) } }
            defer { others.wait() }
            return try Visitor.status(url)
        }
        outcome.log += php.log
        return outcome
    }

    /// nginx's root and `.php` location for `php`'s scripts, read within `readTimeout`.
    static func phpLocation(_ php: PHPFPMServer, readTimeout: String = "10s") -> String {
        "root \(php.documentRoot); location ~ \\.php$ { include /etc/nginx/fastcgi_params; fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name; fastcgi_pass unix:\(php.socket); fastcgi_read_timeout \(readTimeout); }"
    }

    /// Apache (with `directives` too) in front of a real PHP-FPM pool, asked once for `script`.
    private static func apacheWithPHP(_ script: String, pool: String = "", directives: String = "") throws -> Outcome {
        let php = try PHPFPMServer(scripts: scripts, pool: pool)
        defer { php.stop() }
        var outcome = try Reproduce.apache(
            "\(directives)\n<FilesMatch \"\\.php$\">\n    SetHandler \"proxy:unix:\(php.socket)|fcgi://localhost\"\n</FilesMatch>", root: php.documentRoot,
            path: "/" + script)
        outcome.log += php.log
        return outcome
    }

    /// A WSGI application whose one view sleeps 5 s.
    private static let slowView =
        "import time\n\ndef application(environ, start_response):\n    time.sleep(5)\n    start_response('200 OK', [('Content-Type', 'text/plain')])\n    return [b'slept']\n"

    /// nginx (with `location`, given the port) in front of a Python WSGI server (`arguments`,
    /// given the app's folder and port, with `environment`) serving `app` (`app.py`: by default,
    /// one view that sleeps 5 s), its workers sent `signal` a second into the request if given,
    /// asked for `path` with curl's `options`; both logs, read `settle` seconds after the answer
    /// (for what the server writes after the visitor is gone).
    static func slowPython(
        server: String, app: String = slowView, _ arguments: (String, Int) -> [String], environment: [String: String] = [:], killWith signal: Int32? = nil,
        path: String = "/", options: [String] = [], settle: Double = 0, location: (Int) -> String
    ) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(["app.py": app])
        let port = LoopbackPort.free()
        let python = try ServerProcess(server, arguments(folder.path, port), environment: environment, log: folder.url.appendingPathComponent("server.log"))
        defer { python.stop() }
        _ = LoopbackPort.waitUntilOpen(port)
        let master = python.pid
        if let signal { DispatchQueue.global().asyncAfter(deadline: .now() + 1) { ServerProcess.signalChildren(of: master, signal) } }
        var outcome = try Reproduce.nginx(location: location(port), path: path, options: options)
        if settle > 0 { usleep(useconds_t(settle * 1_000_000)) }
        outcome.log += python.log
        return outcome
    }

    /// A WSGI application whose one view dies in `statement`.
    private static func dyingView(_ statement: String, imports: String) -> String {
        "\(imports)\n\ndef application(environ, start_response):\n    \(statement)\n"
    }

    /// nginx's location proxying everything to a port.
    static func proxyPass(_ port: Int) -> String { "location / { proxy_pass http://127.0.0.1:\(port); }" }

    /// Where `make test-deps` put gunicorn 23 from PyPI (Debian 12 ships 20.1).
    private static func gunicorn23() throws -> String {
        let gunicorn = Repository.root.appendingPathComponent(".build-python/gunicorn-23").path
        guard FileManager.default.fileExists(atPath: gunicorn + "/gunicorn") else {
            throw ReproductionError(message: "gunicorn 23 is not in \(gunicorn): run make test-deps")
        }
        return gunicorn
    }

    /// gunicorn 20.1's arguments for the app in a folder on a port, with one worker.
    static func gunicornArguments(_ folder: String, _ port: Int) -> [String] {
        ["--chdir", folder, "--bind", "127.0.0.1:\(port)", "--workers", "1", "app:application"]
    }

    /// A Python WSGI server (`arguments`, given the app's folder and port; gunicorn by default)
    /// serving `app` on `port` (a free one by default) until it exits by itself, as it does when
    /// it cannot start; then `body` with the port and its log.
    static func pythonServerThatExits(
        _ server: String = "gunicorn", _ arguments: (String, Int) -> [String] = gunicornArguments, app: String, port: Int = LoopbackPort.free(),
        _ body: (Int, () -> String) throws -> Outcome
    ) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(["app.py": app])
        let python = try ServerProcess(server, arguments(folder.path, port), log: folder.url.appendingPathComponent("server.log"))
        defer { python.stop() }
        let started = Date()
        while python.isRunning, Date().timeIntervalSince(started) < 15 { usleep(50_000) }
        return try body(port) { python.log }
    }

    static let nginxWithApplications: [LogReproduction] = [
        .init(name: "nginx + PHP-FPM, a fatal error", slugs: ["php-fatal-errors"], status: 500) { try nginxWithPHP("fatal.php") },
        .init(name: "nginx + PHP-FPM, a script that sends less than its Content-Length", slugs: ["upstream-closed-connection"], status: 200) {
            try nginxWithPHP("short.php")
        },
        .init(name: "nginx + PHP-FPM, a script that sends more than its Content-Length", slugs: ["upstream-closed-connection"], status: 200) {
            try nginxWithPHP("long.php")
        },
        .init(name: "nginx + PHP-FPM, a Status header that is not a number", slugs: ["upstream-closed-connection"], status: 502) {
            try nginxWithPHP("status.php")
        },
        .init(name: "nginx + PHP-FPM, memory_limit exhausted", slugs: ["php-fatal-errors"], status: 500) { try nginxWithPHP("memory.php") },
        .init(name: "nginx + PHP-FPM, a script that is not there", slugs: ["php-fatal-errors"], status: 404) { try nginxWithPHP("missing.php") },
        // As root, as CI runs: the pool's workers run as nobody, who may not read the script.
        .init(name: "nginx + PHP-FPM, a script the pool's user may not read", slugs: ["php-fatal-errors"], status: 403, runnable: getuid() == 0) {
            try nginxWithPHP("ok.php", pool: "user = nobody\ngroup = nogroup", mode: 0o600)
        },
        .init(name: "nginx + PHP-FPM, a script outside open_basedir", slugs: ["php-fatal-errors"], status: 404) {
            try nginxWithPHP("ok.php", pool: "php_admin_value[open_basedir] = /nonexistent")
        },
        // The status left with the first 4096 bytes, before the error.
        .init(name: "nginx + PHP-FPM, a fatal error after output_buffering bytes were sent", slugs: ["php-fatal-errors"], status: 200) {
            try nginxWithPHP("late.php", pool: "php_admin_value[output_buffering] = 4096")
        },
        .init(name: "nginx + PHP-FPM, request_terminate_timeout kills the worker", slugs: ["workers-killed"], status: 502) {
            try nginxWithPHP("slow.php", pool: "request_terminate_timeout = 1s")
        },
        .init(name: "nginx + PHP-FPM, a worker that crashes (SIGSEGV)", slugs: ["workers-killed"], status: 502) {
            try nginxWithPHP("slow.php", killWith: SIGSEGV)
        },
        .init(name: "nginx + PHP-FPM, a worker the OOM killer ends (SIGKILL)", slugs: ["workers-killed"], status: 502) {
            try nginxWithPHP("slow.php", killWith: SIGKILL)
        },
        .init(name: "nginx + gunicorn, a worker the OOM killer ends (SIGKILL)", slugs: ["workers-killed", "upstream-closed-connection"], status: 502) {
            try slowPython(
                server: "gunicorn", { ["--chdir", $0, "--bind", "127.0.0.1:\($1)", "--timeout", "30", "--workers", "1", "app:application"] }, killWith: SIGKILL
            ) { "location / { proxy_pass http://127.0.0.1:\($0); proxy_read_timeout 10s; }" }
        },
        // gunicorn 21 and later name the signal and guess why (Debian 12 ships 20.1; make test-deps installs 23 from PyPI).
        .init(name: "nginx + gunicorn 23, a worker the OOM killer ends (SIGKILL)", slugs: ["workers-killed", "upstream-closed-connection"], status: 502) {
            try slowPython(
                server: "python3", { ["-m", "gunicorn", "--chdir", $0, "--bind", "127.0.0.1:\($1)", "--timeout", "30", "--workers", "1", "app:application"] },
                environment: ["PYTHONPATH": try gunicorn23()], killWith: SIGKILL
            ) { "location / { proxy_pass http://127.0.0.1:\($0); proxy_read_timeout 10s; }" }
        },
        // A worker that exits by itself with a code: gunicorn 23 logs `Worker (pid:…) exited with
        // code 1` twice (with and without a full stop; 20.1 says nothing but for codes 3 and 4).
        .init(name: "nginx + gunicorn 23, a view that ends its worker (os._exit)", slugs: ["upstream-closed-connection"], status: 502) {
            try slowPython(
                server: "python3", app: dyingView("os._exit(1)", imports: "import os"), { ["-m", "gunicorn"] + gunicornArguments($0, $1) },
                environment: ["PYTHONPATH": try gunicorn23()], settle: 0.5, location: proxyPass)
        },
        .init(name: "nginx + gunicorn, an application that fails as it loads", slugs: ["upstream-connection-refused"], status: 502) {
            try pythonServerThatExits(app: "import missing_module\n") { port, log in
                var outcome = try Reproduce.nginx(location: proxyPass(port))
                outcome.log += log()
                return outcome
            }
        },
        .init(name: "nginx + gunicorn, an application object it cannot find", slugs: ["upstream-connection-refused"], status: 502) {
            try pythonServerThatExits(app: "def app(environ, start_response):\n    pass\n") { port, log in
                var outcome = try Reproduce.nginx(location: proxyPass(port))
                outcome.log += log()
                return outcome
            }
        },
        .init(name: "nginx + PHP-FPM, more requests than pm.max_children", slugs: ["overload-and-queues"], status: 200) {
            try nginxWithPHP("slow.php", pool: "pm.max_children = 1", concurrent: 2)
        },
        .init(name: "nginx + PHP-FPM, a dynamic pool busier than its spare children", slugs: ["overload-and-queues"], status: 200) {
            try phpPoolBusierThanItsSpares()
        },
        // The dynamic pool counts the children it forks against pm.max_children, and says so.
        .init(
            name: "nginx + PHP-FPM, a pool whose children fail as they start", slugs: ["configuration-refused", "upstream-timed-out", "overload-and-queues"],
            status: 504
        ) {
            try phpPoolWhoseChildrenCannotStart()
        },
        .init(name: "nginx + gunicorn, a worker past --timeout", slugs: ["workers-killed", "upstream-closed-connection"], status: 502) {
            try slowPython(server: "gunicorn", { ["--chdir", $0, "--bind", "127.0.0.1:\($1)", "--timeout", "1", "--workers", "1", "app:application"] }) {
                "location / { proxy_pass http://127.0.0.1:\($0); proxy_read_timeout 10s; }"
            }
        },
        // A worker that dies of a signal while it answers: abort() (a native library's assertion,
        // or gunicorn's SIGABRT at --timeout where the worker cannot run its handler) and a crash.
        .init(name: "nginx + gunicorn, a worker that aborts", slugs: ["workers-killed", "upstream-closed-connection"], status: 502) {
            try slowPython(server: "gunicorn", app: dyingView("os.abort()", imports: "import os"), gunicornArguments, settle: 0.5, location: proxyPass)
        },
        .init(name: "nginx + gunicorn, a worker that crashes", slugs: ["workers-killed", "upstream-closed-connection"], status: 502) {
            try slowPython(
                server: "gunicorn", app: dyingView("ctypes.string_at(0)", imports: "import ctypes"), gunicornArguments, settle: 0.5, location: proxyPass)
        },
        .init(name: "nginx + gunicorn, a view that raises an exception", slugs: ["application-errors"], status: 500) {
            try slowPython(
                server: "gunicorn", app: "def application(environ, start_response):\n    return 1 / 0\n", gunicornArguments, location: proxyPass)
        },
        // An OSError from the view is taken for the client's socket failing: no 500, the
        // connection closed, and nginx's 502.
        .init(name: "nginx + gunicorn, a view that cannot open a file", slugs: ["application-errors", "upstream-closed-connection"], status: 502) {
            try slowPython(
                server: "gunicorn", app: "def application(environ, start_response):\n    open('/nonexistent/settings.yml')\n    return []\n",
                gunicornArguments, location: proxyPass)
        },
    ]

    /// HAProxy checking its one server (`upstream`) every 200 ms with `check` in the defaults,
    /// a check failing after 300 ms, every failed check logged; asked once the checks are in.
    private static func haproxyChecking(_ upstream: FakeUpstream, _ check: String, server options: String = "") throws -> Outcome {
        try haproxyChecking(port: upstream.port, check, server: options)
    }

    /// The same for a server on `port`, with `global` in HAProxy's global section.
    private static func haproxyChecking(port: Int, _ check: String, server options: String = "", global: String = "") throws -> Outcome {
        try Reproduce.haproxy(
            server: "127.0.0.1:\(port) check \(options) inter 200ms fall 1 rise 1", global: global,
            defaults: "\(check)\n    option log-health-checks\n    timeout check 300ms"
        ) { port, _ in
            usleep(1_500_000)
            let status = try Visitor.status("http://127.0.0.1:\(port)/")
            usleep(200_000)
            return status
        }
    }

    /// HAProxy checking its one server with a shell script of `script`, with `global` (HAProxy
    /// forks the script only with insecure-fork-wanted, there by default).
    private static func haproxyCheckingExternally(script: String, global: String = "insecure-fork-wanted") throws -> Outcome {
        let folder = try TemporaryFolder(files: ["check.sh": "#!/bin/sh\n\(script)\n"])
        defer { folder.remove() }
        chmod(folder.path, 0o755)
        chmod(folder.path + "/check.sh", 0o755)
        return try haproxyChecking(
            port: LoopbackPort.free(), "option external-check\n    external-check command \(folder.path)/check.sh",
            global: global + "\n    external-check")
    }

    static let haproxy: [LogReproduction] = [
        .init(name: "HAProxy, nothing listens on the server's port", slugs: ["upstream-connection-refused"], status: 503) {
            try Reproduce.haproxy(server: "127.0.0.1:\(LoopbackPort.free())")
        },
        .init(name: "HAProxy, a firewall drops the connection", slugs: ["upstream-connect-timeout"], status: 503) {
            try with(.neverAccepts) { try Reproduce.haproxy(server: "127.0.0.1:\($0.port)") }
        },
        // With `option abortonclose` a visitor who leaves ends the session at once: while the
        // server's connection is being made, `CC--` (curl gives up: no status).
        .init(name: "HAProxy, a visitor who leaves while the server's connection is made", slugs: ["client-closed-request"], status: 0) {
            try with(.neverAccepts) {
                try Reproduce.haproxy(server: "127.0.0.1:\($0.port)", defaults: "option abortonclose", options: ["--max-time", "0.5"])
            }
        },
        // The same in the common log format, read as its `option httplog` fields.
        .init(name: "HAProxy in the common log format, a visitor who leaves while the connection is made", slugs: ["client-closed-request"], status: 0) {
            try with(.neverAccepts) {
                try Reproduce.haproxy(
                    server: "127.0.0.1:\($0.port)", defaults: "option abortonclose", options: ["--max-time", "0.5"], logFormat: "option httplog clf")
            }
        },
        .init(name: "HAProxy in the common log format, nothing listens on the server's port", slugs: ["upstream-connection-refused"], status: 503) {
            try Reproduce.haproxy(server: "127.0.0.1:\(LoopbackPort.free())", logFormat: "option httplog clf")
        },
        .init(name: "HAProxy, a server that closes without answering", slugs: ["upstream-closed-connection"], status: 502) {
            try with(.closes) { try Reproduce.haproxy(server: "127.0.0.1:\($0.port)") }
        },
        .init(name: "HAProxy, a server that closes in the middle of its body", slugs: ["upstream-closed-connection"], status: 200) {
            try with(.truncates) { try Reproduce.haproxy(server: "127.0.0.1:\($0.port)") }
        },
        .init(name: "HAProxy, a server whose chunked body is broken", slugs: ["upstream-closed-connection"], status: 502) {
            try with(.invalidChunk) { try Reproduce.haproxy(server: "127.0.0.1:\($0.port)") }
        },
        .init(name: "HAProxy, a server that answers something not HTTP", slugs: ["upstream-closed-connection"], status: 502) {
            try with(.notHTTP) { try Reproduce.haproxy(server: "127.0.0.1:\($0.port)") }
        },
        .init(name: "HAProxy, a server that never answers", slugs: ["upstream-timed-out"], status: 504) {
            try with(.silent) { try Reproduce.haproxy(server: "127.0.0.1:\($0.port)") }
        },
        .init(name: "HAProxy, a request that waits in the queue past timeout queue", slugs: ["overload-and-queues", "upstream-timed-out"], status: 503) {
            // The request holding the server's only slot times out (sH--) on the silent server.
            try with(.silent) { try Reproduce.haproxy(server: "127.0.0.1:\($0.port) maxconn 1", defaults: "timeout queue 300ms", concurrent: 2) }
        },
        // A visitor whose persistence cookie names a server with its one slot busy and its queue
        // full: without `option redispatch` HAProxy answers 503 at once (`SQ--`), no wait.
        .init(name: "HAProxy, a visitor held to a server whose queue is full", slugs: ["overload-and-queues", "upstream-timed-out"], status: 503) {
            try with(.silent) {
                try Reproduce.haproxy(
                    server: "127.0.0.1:\($0.port) cookie a maxconn 1 maxqueue 1", defaults: "cookie SRV insert\n    timeout queue 5s", serverTimeout: "3s"
                ) { port, _ in
                    // Half a second apart, each on a thread of its own (the shared queue may start
                    // it late): the first holds the slot, the second the queue.
                    let url = "http://127.0.0.1:\(port)/"
                    let held = ["--cookie", "SRV=a"]
                    let holding = DispatchGroup()
                    for _ in 0..<2 {
                        holding.enter()
                        Thread {
                            _ = try? Visitor.status(url, held)
                            holding.leave()
                        }.start()
                        usleep(500_000)
                    }
                    let status = try Visitor.status(url, held)
                    holding.wait()
                    return status
                }
            }
        },
        .init(name: "HAProxy, a server certificate it cannot verify, logged as a refused connection", slugs: ["upstream-connection-refused"], status: 503) {
            try withSelfSignedTLS { try Reproduce.haproxy(server: "127.0.0.1:\($0) ssl verify required ca-file /etc/ssl/certs/ca-certificates.crt") }
        },
        .init(name: "HAProxy, every server down by its health checks", slugs: ["health-checks-mark-all-backends-down"], status: 503) {
            try Reproduce.haproxy(server: "127.0.0.1:\(LoopbackPort.free()) check inter 200ms fall 1 rise 1", settle: 1)
        },
        // Each reason a check fails for, with `option log-health-checks` logging every failed check.
        .init(name: "HAProxy, a check URL that answers 401", slugs: ["health-checks-mark-all-backends-down"], status: 503) {
            try with(.byPath) { try haproxyChecking($0, "option httpchk GET /s401") }
        },
        .init(name: "HAProxy, a check answered with something not HTTP", slugs: ["health-checks-mark-all-backends-down"], status: 503) {
            try with(.notHTTP) { try haproxyChecking($0, "option httpchk GET /healthz") }
        },
        .init(name: "HAProxy, a check URL that never answers", slugs: ["health-checks-mark-all-backends-down"], status: 503) {
            try with(.silent) { try haproxyChecking($0, "option httpchk GET /healthz") }
        },
        .init(name: "HAProxy, a check connection that never opens", slugs: ["health-checks-mark-all-backends-down"], status: 503) {
            try with(.neverAccepts) { try haproxyChecking($0, "") }
        },
        // A check command of the operator's (HAProxy forks it: insecure-fork-wanted) that fails
        // or outlasts `timeout check`.
        .init(name: "HAProxy, an external check that fails", slugs: ["health-checks-mark-all-backends-down"], status: 503) {
            try haproxyCheckingExternally(script: "exit 1")
        },
        .init(name: "HAProxy, an external check that outlasts timeout check", slugs: ["health-checks-mark-all-backends-down"], status: 503) {
            try haproxyCheckingExternally(script: "/bin/sleep 5")
        },
        // Without insecure-fork-wanted HAProxy forbids itself new processes once it has dropped
        // to its user (root is not held to that limit): every check fails before it starts.
        .init(
            name: "HAProxy, an external check without insecure-fork-wanted, run as nobody", slugs: ["health-checks-mark-all-backends-down"], status: 503,
            runnable: getuid() == 0
        ) {
            try haproxyCheckingExternally(script: "exit 0", global: "user nobody\n    group nogroup")
        },
        // check-ssl on a port that speaks plain HTTP, or takes the handshake and never answers it.
        .init(name: "HAProxy, a TLS check on a port without TLS", slugs: ["health-checks-mark-all-backends-down"], status: 503) {
            try with(.answers) { try haproxyChecking($0, "", server: "check-ssl verify none") }
        },
        .init(name: "HAProxy, a TLS check whose handshake is never answered", slugs: ["health-checks-mark-all-backends-down"], status: 503) {
            try with(.silent) { try haproxyChecking($0, "", server: "check-ssl verify none") }
        },
        // The check's port answers; the server's own port refuses the traffic (the first
        // request's refused connection), which `observe layer4` counts: one error (error-limit
        // 1) takes the server down, reason Health analyze, though its checks pass.
        .init(
            name: "HAProxy, a server its observed traffic errors take down", slugs: ["health-checks-mark-all-backends-down", "upstream-connection-refused"],
            status: 503
        ) {
            try with(.answers) {
                try Reproduce.haproxy(
                    server: "127.0.0.1:\(LoopbackPort.free()) check port \($0.port) inter 10s observe layer4 error-limit 1 on-error mark-down",
                    defaults: "option log-health-checks", concurrent: 2, settle: 0.5)
            }
        },
    ]

    static let caddy: [LogReproduction] = [
        // The visitor has the headers (200) and leaves during the body: Caddy's request
        // context ends, and the error says so rather than naming the upstream.
        .init(name: "Caddy, a visitor who leaves during a large answer", slugs: ["client-closed-request"], status: 200) {
            try with(.streams) { try Reproduce.caddy(site: "\treverse_proxy 127.0.0.1:\($0.port)\n", ask: ["--max-time", "1"]) }
        },
        // A visitor who reads slowly keeps Caddy blocked writing to it once the sockets'
        // buffers are full (4 MB and more on loopback: two seconds of the upstream's stream);
        // when it leaves, the failed write to its connection is the error.
        .init(name: "Caddy, a slow visitor who leaves during a large answer", slugs: ["client-closed-request"], status: 200) {
            try with(.streams) { try Reproduce.caddy(site: "\treverse_proxy 127.0.0.1:\($0.port)\n", ask: ["--limit-rate", "20k", "--max-time", "4"]) }
        },
        .init(name: "Caddy, nothing listens on the upstream port", slugs: ["upstream-connection-refused"], status: 502) {
            try Reproduce.caddy(upstream: "127.0.0.1:\(LoopbackPort.free())")
        },
        .init(name: "Caddy, a firewall drops the connection", slugs: ["upstream-connect-timeout"], status: 502) {
            try with(.neverAccepts) { try Reproduce.caddy(upstream: "127.0.0.1:\($0.port)") }
        },
        .init(name: "Caddy, an upstream that closes without answering", slugs: ["upstream-closed-connection"], status: 502) {
            try with(.closes) { try Reproduce.caddy(upstream: "127.0.0.1:\($0.port)") }
        },
        .init(name: "Caddy, an upstream that closes in the middle of its body", slugs: ["upstream-closed-connection"], status: 200) {
            try with(.truncates) { try Reproduce.caddy(upstream: "127.0.0.1:\($0.port)") }
        },
        // The status went out with the headers; the body stops at the broken chunk.
        .init(name: "Caddy, an upstream whose chunked body is broken", slugs: ["upstream-closed-connection"], status: 200) {
            try with(.invalidChunk) { try Reproduce.caddy(upstream: "127.0.0.1:\($0.port)") }
        },
        .init(name: "Caddy, an upstream that answers something not HTTP", slugs: ["upstream-closed-connection"], status: 502) {
            try with(.notHTTP) { try Reproduce.caddy(upstream: "127.0.0.1:\($0.port)") }
        },
        .init(name: "Caddy, an upstream whose status line has no code", slugs: ["upstream-closed-connection"], status: 502) {
            try with(.malformedStatus) { try Reproduce.caddy(upstream: "127.0.0.1:\($0.port)") }
        },
        .init(name: "Caddy, a worker reset the connection", slugs: ["workers-killed"], status: 502) {
            try with(.resets) { try Reproduce.caddy(upstream: "127.0.0.1:\($0.port)") }
        },
        .init(name: "Caddy, a missing PHP-FPM socket", slugs: ["php-fpm-socket-unavailable"], status: 502) {
            try Reproduce.caddy(site: "\troot * /var/www/html\n\tphp_fastcgi unix//run/detour-test-missing/php8.2-fpm.sock\n", path: "/index.php")
        },
        .init(name: "Caddy, php_fastcgi to a port that speaks HTTP", slugs: ["upstream-closed-connection"], status: 502) {
            // An HTTP server's answer, the connection kept: `HT` read as a FastCGI record's version.
            try with(.sends([Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)], then: .staysOpen)) {
                try Reproduce.caddy(site: "\tphp_fastcgi 127.0.0.1:\($0.port)\n", path: "/index.php")
            }
        },
        .init(name: "Caddy, an upstream that never answers", slugs: ["upstream-timed-out"], status: 504) {
            try with(.silent) { try Reproduce.caddy(upstream: "127.0.0.1:\($0.port)") }
        },
        .init(name: "Caddy, an upstream certificate for a name, reached by address", slugs: ["upstream-tls"], status: 502) {
            try withSelfSignedTLS { try Reproduce.caddy(upstream: "https://127.0.0.1:\($0)") }
        },
        .init(name: "Caddy, an upstream certificate no CA vouches for", slugs: ["upstream-tls"], status: 502) {
            try withSelfSignedTLS(subjectAltName: "IP:127.0.0.1") { try Reproduce.caddy(upstream: "https://127.0.0.1:\($0)") }
        },
        .init(name: "Caddy, https:// to an upstream that speaks plain HTTP", slugs: ["upstream-tls"], status: 502) {
            try with(.answers) { try Reproduce.caddy(upstream: "https://127.0.0.1:\($0.port)") }
        },
        .init(name: "Caddy, an upstream name that does not resolve", slugs: ["upstream-dns"], status: 502) {
            try Reproduce.caddy(upstream: "app.invalid:8080")
        },
        // Caddy asks its own resolver (`resolvers`, over TCP here), which takes the query and never
        // answers: the lookup runs out of the dial's time.
        .init(name: "Caddy, a resolver that does not answer", slugs: ["upstream-dns"], status: 502) {
            try with(.silent) {
                try Reproduce.caddy(
                    site: "\treverse_proxy app.invalid:8080 {\n\t\ttransport http {\n\t\t\tdial_timeout 1s\n\t\t\tresolvers 127.0.0.1:\($0.port)\n\t\t}\n\t}\n")
            }
        },
        // The health checker logs each refused probe too.
        .init(
            name: "Caddy, active health checks find no upstream up", slugs: ["health-checks-mark-all-backends-down", "upstream-connection-refused"], status: 503
        ) {
            try Reproduce.caddy(upstream: "127.0.0.1:\(LoopbackPort.free())", options: "health_uri /health\n\t\thealth_interval 200ms", settle: 1)
        },
        // An upstream that answers its health check, but not as the check expects: a status
        // of 400 or more, one other than health_status asks, a body health_body does not match.
        .init(name: "Caddy, active health checks answered 500", slugs: ["health-checks-mark-all-backends-down"], status: 503) {
            try caddyHealthChecked(answering: "500 Internal Server Error", body: "fail", options: "")
        },
        .init(name: "Caddy, active health checks answered other than health_status", slugs: ["health-checks-mark-all-backends-down"], status: 503) {
            try caddyHealthChecked(answering: "204 No Content", body: "", options: "health_status 200")
        },
        .init(name: "Caddy, active health checks answered a body health_body does not match", slugs: ["health-checks-mark-all-backends-down"], status: 503) {
            try caddyHealthChecked(answering: "200 OK", body: "starting", options: "health_body ^ok$")
        },
    ]

    /// Caddy proxying to one upstream that answers every request `status` with `body`, checked
    /// at /health every 200 ms with `options` besides, asked once the checks have had their say.
    private static func caddyHealthChecked(answering status: String, body: String, options: String) throws -> Outcome {
        let answer = "HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        return try with(.sends([Array(answer.utf8)], then: .closes)) {
            try Reproduce.caddy(upstream: "127.0.0.1:\($0.port)", options: "health_uri /health\n\t\thealth_interval 200ms\n\t\t\(options)", settle: 1)
        }
    }

    static let apache: [LogReproduction] = [
        .init(name: "Apache, nothing listens on the backend port", slugs: ["upstream-connection-refused"], status: 503) {
            try Reproduce.apache("ProxyPass / http://127.0.0.1:\(LoopbackPort.free())/")
        },
        // The two members' AH00959 (disabling worker) lines belong to the request that tried them.
        .init(name: "Apache, every balancer member refuses", slugs: ["upstream-connection-refused"], status: 503) {
            let members = (0..<2).map { _ in "    BalancerMember http://127.0.0.1:\(LoopbackPort.free())" }.joined(separator: "\n")
            return try Reproduce.apache(
                "<Proxy balancer://app>\n\(members)\n</Proxy>\nProxyPass / balancer://app/",
                modules: Reproduce.apacheModules + ["proxy_balancer", "lbmethod_byrequests", "slotmem_shm"])
        },
        // Without forced recovery, members out stay out until `retry`: the second visitor's 503
        // comes at once, with AH01170 and no word of the backends.
        .init(
            name: "Apache, a balancer without forced recovery, every member out",
            slugs: ["health-checks-mark-all-backends-down", "upstream-connection-refused"],
            status: 503
        ) {
            let members = (0..<2).map { _ in "    BalancerMember http://127.0.0.1:\(LoopbackPort.free())" }.joined(separator: "\n")
            return try Reproduce.apache(
                "<Proxy balancer://app>\n\(members)\n    ProxySet forcerecovery=Off\n</Proxy>\nProxyPass / balancer://app/",
                modules: Reproduce.apacheModules + ["proxy_balancer", "lbmethod_byrequests", "slotmem_shm"]
            ) { port in
                _ = try Visitor.status("http://127.0.0.1:\(port)/")
                return try Visitor.status("http://127.0.0.1:\(port)/")
            }
        },
        .init(name: "Apache, a firewall drops the connection", slugs: ["upstream-connect-timeout"], status: 503) {
            try with(.neverAccepts) { try Reproduce.apache("ProxyPass / http://127.0.0.1:\($0.port)/ connectiontimeout=1") }
        },
        // Run by mod_cgid's daemon as the server's user: the folder and script must be open to it.
        .init(name: "Apache, a CGI script that ends before its headers", slugs: ["application-errors"], status: 500) {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            try folder.write(["report.cgi": "#!/bin/sh\necho 'cannot connect to database' >&2\nexit 1\n"])
            chmod(folder.path, 0o755)
            chmod(folder.path + "/report.cgi", 0o755)
            return try Reproduce.apache(
                "LoadModule cgid_module /usr/lib/apache2/modules/mod_cgid.so\nScriptSock \(folder.path)/cgid.sock\n<Directory \(folder.path)>\n    Options +ExecCGI\n    SetHandler cgi-script\n</Directory>",
                root: folder.path, path: "/report.cgi")
        },
        .init(name: "Apache, a backend that never answers", slugs: ["upstream-timed-out"], status: 502) {
            try with(.silent) { try Reproduce.apache("ProxyPass / http://127.0.0.1:\($0.port)/ timeout=1") }
        },
        // The status went out before the silence: AH01110's words are those of a backend that
        // closed, its errno prefix (70007) that of a timeout.
        .init(name: "Apache, a backend silent after its headers", slugs: ["upstream-timed-out"], status: 200) {
            try with(.stallsMidBody) { try Reproduce.apache("ProxyPass / http://127.0.0.1:\($0.port)/ timeout=1") }
        },
        // Two worker threads in all, both waiting on a backend that never answers: the MPM says
        // so at its next check (once a second), and the third visitor waits in the listen queue
        // for a thread, then for the backend too.
        .init(name: "Apache, every worker thread busy (MaxRequestWorkers)", slugs: ["overload-and-queues", "upstream-timed-out"], status: 502) {
            try with(.silent) { upstream in
                try Reproduce.apache(
                    """
                    ServerLimit 1
                    StartServers 1
                    ThreadLimit 2
                    ThreadsPerChild 2
                    MaxRequestWorkers 2
                    MinSpareThreads 1
                    MaxSpareThreads 2
                    ProxyPass / http://127.0.0.1:\(upstream.port)/ timeout=2
                    """
                ) { port in try Visitor.status("http://127.0.0.1:\(port)/", after: 2) }
            }
        },
        .init(name: "Apache, a backend that closes without answering", slugs: ["upstream-closed-connection"], status: 502) {
            try with(.closes) { try Reproduce.apache("ProxyPass / http://127.0.0.1:\($0.port)/") }
        },
        .init(name: "Apache, a backend that closes in the middle of its body", slugs: ["upstream-closed-connection"], status: 200) {
            try with(.truncates) { try Reproduce.apache("ProxyPass / http://127.0.0.1:\($0.port)/") }
        },
        .init(name: "Apache, a backend whose chunked body is broken", slugs: ["upstream-closed-connection"], status: 502) {
            try with(.invalidChunk) { try Reproduce.apache("ProxyPass / http://127.0.0.1:\($0.port)/") }
        },
        // Apache 2.4.71 refuses a header name a header may not have, and answers 500.
        .init(name: "Apache, a backend header whose name holds a space", slugs: ["upstream-closed-connection"], status: 500) {
            try with(.invalidHeader) { try Reproduce.apache("ProxyPass / http://127.0.0.1:\($0.port)/") }
        },
        .init(name: "Apache, a backend header with an empty name", slugs: ["upstream-closed-connection"], status: 500) {
            let answer = "HTTP/1.1 200 OK\r\n: empty\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
            return try with(.sends([Array(answer.utf8)], then: .closes)) { try Reproduce.apache("ProxyPass / http://127.0.0.1:\($0.port)/") }
        },
        .init(name: "Apache, a backend header whose value holds a control character", slugs: ["upstream-closed-connection"], status: 500) {
            let answer = "HTTP/1.1 200 OK\r\nX-Note: a\u{01}b\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
            return try with(.sends([Array(answer.utf8)], then: .closes)) { try Reproduce.apache("ProxyPass / http://127.0.0.1:\($0.port)/") }
        },
        // Apache passes a reply without a status line on as HTTP/0.9 and logs nothing.
        .init(name: "Apache, a backend that answers something not HTTP", slugs: [], status: 200) {
            try with(.notHTTP) { try Reproduce.apache("ProxyPass / http://127.0.0.1:\($0.port)/") }
        },
        .init(name: "Apache, response headers over ResponseFieldSize", slugs: ["upstream-header-too-big"], status: 502) {
            try with(.hugeHeader(bytes: 16_000)) { try Reproduce.apache("ProxyPass / http://127.0.0.1:\($0.port)/") }
        },
        // The article's fix: the ProxyPass parameter (2.4 has no ResponseFieldSize directive).
        .init(name: "Apache, the same headers under responsefieldsize=32768", slugs: [], status: 200) {
            try with(.hugeHeader(bytes: 16_000)) { try Reproduce.apache("ProxyPass / http://127.0.0.1:\($0.port)/ responsefieldsize=32768") }
        },
        .init(name: "Apache, an upstream certificate it cannot verify", slugs: ["upstream-tls"], status: 500) {
            try withSelfSignedTLS {
                try Reproduce.apache(
                    "LoadModule ssl_module /usr/lib/apache2/modules/mod_ssl.so\nSSLProxyEngine on\nSSLProxyVerify require\nSSLProxyCACertificateFile /etc/ssl/certs/ca-certificates.crt\nProxyPass / https://127.0.0.1:\($0)/"
                )
            }
        },
        // mod_ssl loaded, SSLProxyEngine left off.
        .init(name: "Apache, ProxyPass to https:// without SSLProxyEngine", slugs: ["upstream-tls"], status: 500) {
            try withSelfSignedTLS {
                try Reproduce.apache("LoadModule ssl_module /usr/lib/apache2/modules/mod_ssl.so\nProxyPass / https://127.0.0.1:\($0)/")
            }
        },
        // Per directory, a rewrite is an internal redirect, and the new address is rewritten too.
        .init(name: "Apache, a per-directory rewrite whose result it rewrites again", slugs: ["nginx-internal-redirection-cycle"], status: 500) {
            let site = try TemporaryFolder()
            defer { site.remove() }
            chmod(site.path, 0o755)
            return try Reproduce.apache(
                "<Directory \(site.path)>\n    RewriteEngine On\n    RewriteRule ^ /again [L]\n</Directory>", root: site.path, path: "/start",
                modules: Reproduce.apacheModules + ["rewrite"])
        },
        .init(name: "Apache + PHP-FPM, a missing socket", slugs: ["apache-php-fpm"], status: 503) {
            try Reproduce.apache(
                "<FilesMatch \"\\.php$\">\n    SetHandler \"proxy:unix:/run/detour-test-missing/php8.2-fpm.sock|fcgi://localhost\"\n</FilesMatch>",
                path: "/index.php")
        },
        .init(name: "Apache + PHP-FPM on a port nothing listens on", slugs: ["apache-php-fpm"], status: 503) {
            try Reproduce.apache(
                "<FilesMatch \"\\.php$\">\n    SetHandler \"proxy:fcgi://127.0.0.1:\(LoopbackPort.free())\"\n</FilesMatch>", path: "/index.php")
        },
        // An HTTP server's answer read as a FastCGI record: `H` (72) is not version 1.
        .init(name: "Apache + PHP-FPM, fcgi:// to a port that speaks HTTP", slugs: ["apache-php-fpm"], status: 503) {
            try with(.sends([Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)], then: .staysOpen)) {
                try Reproduce.apache("<FilesMatch \"\\.php$\">\n    SetHandler \"proxy:fcgi://127.0.0.1:\($0.port)\"\n</FilesMatch>", path: "/index.php")
            }
        },
        .init(name: "Apache + PHP-FPM, request_terminate_timeout kills the worker", slugs: ["apache-php-fpm", "workers-killed"], status: 503) {
            try apacheWithPHP("slow.php", pool: "request_terminate_timeout = 1s")
        },
        .init(name: "Apache + PHP-FPM, a script slower than ProxyTimeout", slugs: ["upstream-timed-out"], status: 504) {
            try apacheWithPHP("slow.php", directives: "ProxyTimeout 1")
        },
        .init(name: "Apache + PHP-FPM, a fatal error", slugs: ["php-fatal-errors"], status: 500) { try apacheWithPHP("fatal.php") },
        .init(name: "Apache + PHP-FPM, a script that is not there", slugs: ["php-fatal-errors"], status: 404) { try apacheWithPHP("missing.php") },
    ]
}
