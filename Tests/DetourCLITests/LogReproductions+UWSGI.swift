import DetourTestSupport
import Foundation

/// The reproductions with uWSGI 2.0 (Debian 12's, with its Python 3 plugin) behind nginx's
/// `uwsgi_pass`: a worker past harakiri, killed or crashing; an application that does not load;
/// a request too big for uWSGI's buffer; a visitor who leaves or stops reading; its port already
/// taken; HTTP sent to its own protocol, or its protocol with no plugin to answer it; and its HTTP
/// router failing to reach a node.
extension LogReproduction {
    /// nginx's location passing every request to uWSGI on `port`.
    private static func uwsgiPass(_ port: Int) -> String {
        "location / { include /etc/nginx/uwsgi_params; uwsgi_pass 127.0.0.1:\(port); uwsgi_read_timeout 10s; }"
    }

    /// uWSGI's arguments for app.py in a folder on a port: a master and one worker, stopped by
    /// SIGTERM (uWSGI 2.0 reloads on it otherwise), and `extra`; without `app`, the app is
    /// named elsewhere (an option a plugin defines). `socket` is its own protocol's option, or
    /// `--http-socket` for HTTP.
    private static func uwsgiArguments(_ extra: [String] = [], app: Bool = true, socket: String = "--socket") -> (String, Int) -> [String] {
        { folder, port in
            [socket, "127.0.0.1:\(port)", "--chdir", folder] + (app ? ["--wsgi-file", "app.py"] : []) + ["--processes", "1", "--master", "--die-on-term"]
                + extra
        }
    }

    /// Seconds for uWSGI's master to notice a worker that died and log it: it looks once a second.
    private static let masterTick = 1.5

    /// A WSGI application whose one view runs `statement` first, then answers `body`.
    private static func view(_ statement: String, body: String = "b'ok'", imports: String = "") -> String {
        "\(imports)\n\ndef application(environ, start_response):\n    \(statement)\n    start_response('200 OK', [('Content-Type', 'text/plain')])\n    return [\(body)]\n"
    }

    /// uWSGI with its HTTP router (`--http`) on a free port in front of one worker serving
    /// `app`, asked once with curl's `options`.
    private static func uwsgiRouter(app: String, options: [String]) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(["app.py": app])
        let port = LoopbackPort.free()
        let arguments = ["--plugin", "python3,http", "--http", "127.0.0.1:\(port)", "--chdir", folder.path, "--wsgi-file", "app.py"]
        let uwsgi = try ServerProcess(
            "uwsgi", arguments + ["--processes", "1", "--master", "--die-on-term"], log: folder.url.appendingPathComponent("server.log"))
        defer { uwsgi.stop() }
        _ = LoopbackPort.waitUntilOpen(port)
        let status = try Visitor.status("http://127.0.0.1:\(port)/", options)
        usleep(300_000)
        return .init(status: status, log: uwsgi.log)
    }

    /// uWSGI's HTTP router alone on a free port, sending every request to `node` with a 1 s
    /// connect timeout, asked once.
    private static func uwsgiRouter(to node: Int) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let port = LoopbackPort.free()
        let arguments = ["--plugin", "http", "--http", "127.0.0.1:\(port)", "--http-to", "127.0.0.1:\(node)", "--http-connect-timeout", "1", "--master"]
        let uwsgi = try ServerProcess("uwsgi", arguments + ["--die-on-term"], log: folder.url.appendingPathComponent("server.log"))
        defer { uwsgi.stop() }
        _ = LoopbackPort.waitUntilOpen(port)
        let status = try Visitor.status("http://127.0.0.1:\(port)/")
        usleep(300_000)
        return .init(status: status, log: uwsgi.log)
    }

    /// uWSGI with its own protocol on `--socket`, asked directly by curl at `url` (`PORT` its
    /// port) once with each of `asks` (curl's options); the status is the last one's.
    private static func uwsgiAskedDirectly(_ url: String, _ asks: [[String]]) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(["app.py": view("pass")])
        let port = LoopbackPort.free()
        let uwsgi = try ServerProcess("uwsgi_python3", uwsgiArguments()(folder.path, port), log: folder.url.appendingPathComponent("server.log"))
        defer { uwsgi.stop() }
        _ = LoopbackPort.waitUntilOpen(port)
        var status = -1
        for options in asks { status = try Visitor.status(url.replacingOccurrences(of: "PORT", with: String(port)), options, seconds: 3) }
        usleep(300_000)
        return .init(status: status, log: uwsgi.log)
    }

    /// uWSGI serving HTTP itself (`--http-socket`) with a 1 s `--socket-timeout`, asked by a
    /// visitor who reads nothing of an answer larger than the sockets between them hold.
    private static func uwsgiToAVisitorWhoStopsReading() throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(["app.py": view("pass", body: "b'x' * 32_000_000")])
        let port = LoopbackPort.free()
        let arguments = ["--http-socket", "127.0.0.1:\(port)", "--chdir", folder.path, "--wsgi-file", "app.py", "--socket-timeout", "1"]
        let uwsgi = try ServerProcess(
            "uwsgi_python3", arguments + ["--processes", "1", "--master", "--die-on-term"], log: folder.url.appendingPathComponent("server.log"))
        defer { uwsgi.stop() }
        _ = LoopbackPort.waitUntilOpen(port)
        let visitor = try VisitorConnection(port: port)
        guard visitor.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n") else { return .init(status: 0, log: uwsgi.log) }
        sleep(3)
        return .init(status: visitor.status(), log: uwsgi.log)
    }

    /// uWSGI with a backlog of two (`--listen 2`) and one worker sleeping 5 s, behind nginx
    /// with a 1 s `uwsgi_connect_timeout`: five requests fill the worker and the queue, and the
    /// master says so once a second; the one asked last finds no room and waits for a
    /// connection nginx gives up on.
    private static func uwsgiQueueFull() throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(["app.py": view("time.sleep(5)", imports: "import time")])
        let port = LoopbackPort.free()
        let uwsgi = try ServerProcess(
            "uwsgi_python3", uwsgiArguments(["--listen", "2"])(folder.path, port), log: folder.url.appendingPathComponent("server.log"))
        defer { uwsgi.stop() }
        _ = LoopbackPort.waitUntilOpen(port)
        let waiting = DispatchGroup()
        var outcome = try Reproduce.nginx("server { listen 127.0.0.1:PORT; uwsgi_connect_timeout 1s; \(uwsgiPass(port)) }") { nginxPort in
            let url = "http://127.0.0.1:\(nginxPort)/"
            // A thread each: the global queue would not run five blocking visitors at once.
            for _ in 0..<5 {
                waiting.enter()
                Thread.detachNewThread {
                    _ = try? Visitor.status(url)
                    waiting.leave()
                }
                usleep(100_000)
            }
            usleep(UInt32(masterTick * 1_000_000))
            return try Visitor.status(url)
        }
        outcome.log += uwsgi.log
        uwsgi.stop()
        waiting.wait()
        return outcome
    }

    static let uwsgiBehindNginx: [LogReproduction] = [
        .init(name: "nginx + uWSGI, a listen queue fuller than its backlog", slugs: ["upstream-connect-timeout", "overload-and-queues"], status: 504) {
            try uwsgiQueueFull()
        },
        .init(name: "nginx + uWSGI, a worker past harakiri", slugs: ["workers-killed", "upstream-closed-connection"], status: 502) {
            try slowPython(server: "uwsgi_python3", uwsgiArguments(["--harakiri", "1"]), settle: masterTick, location: uwsgiPass)
        },
        // The master reads the stuck worker's system call and wait channel from /proc first.
        .init(name: "nginx + uWSGI, a worker past harakiri, with harakiri-verbose", slugs: ["workers-killed", "upstream-closed-connection"], status: 502) {
            try slowPython(server: "uwsgi_python3", uwsgiArguments(["--harakiri", "1", "--harakiri-verbose"]), settle: masterTick, location: uwsgiPass)
        },
        // Without a master, the worker's own alarm ends it, and nothing starts another.
        .init(name: "nginx + uWSGI without a master, a worker past harakiri", slugs: ["workers-killed", "upstream-closed-connection"], status: 502) {
            try slowPython(
                server: "uwsgi_python3",
                { folder, port in ["--socket", "127.0.0.1:\(port)", "--chdir", folder, "--wsgi-file", "app.py", "--processes", "1", "--harakiri", "1"] },
                location: uwsgiPass)
        },
        .init(name: "nginx + uWSGI, a worker the OOM killer ends (SIGKILL)", slugs: ["workers-killed", "upstream-closed-connection"], status: 502) {
            try slowPython(server: "uwsgi_python3", uwsgiArguments(), killWith: SIGKILL, settle: masterTick, location: uwsgiPass)
        },
        .init(name: "nginx + uWSGI, a worker that crashes (SIGSEGV)", slugs: ["workers-killed", "upstream-closed-connection"], status: 502) {
            try slowPython(
                server: "uwsgi_python3", app: view("ctypes.string_at(0)", imports: "import ctypes"), uwsgiArguments(), settle: masterTick,
                location: uwsgiPass)
        },
        .init(name: "nginx + uWSGI, a worker that gets SIGFPE", slugs: ["workers-killed", "upstream-closed-connection"], status: 502) {
            try slowPython(
                server: "uwsgi_python3", app: view("os.kill(os.getpid(), signal.SIGFPE)", imports: "import os, signal"), uwsgiArguments(),
                settle: masterTick, location: uwsgiPass)
        },
        // uWSGI 2.0 serves on without the app and answers every request 500.
        .init(name: "nginx + uWSGI, an application that fails as it loads", slugs: ["application-errors"], status: 500) {
            try slowPython(server: "uwsgi_python3", app: "import missing_module\n", uwsgiArguments(), location: uwsgiPass)
        },
        // With its request log apart (--req-logger), read first as a file of its own: the
        // request's line has no line before it to say why.
        .init(name: "nginx + uWSGI with its request log apart, an application that fails as it loads", slugs: ["application-errors"], status: 500) {
            let requests = try TemporaryFolder()
            defer { requests.remove() }
            let outcome = try slowPython(
                server: "uwsgi_python3", app: "import missing_module\n",
                uwsgiArguments(["--plugin", "logfile", "--req-logger", "file:\(requests.path)/requests.log"]),
                location: uwsgiPass)
            return .init(status: outcome.status, log: ((try? requests.read("requests.log")) ?? "") + outcome.log)
        },
        // With --need-app it exits instead, and nothing listens on its port.
        .init(
            name: "nginx + uWSGI with --need-app, an application that fails as it loads", slugs: ["upstream-connection-refused", "application-errors"],
            status: 502
        ) {
            try pythonServerThatExits("uwsgi_python3", uwsgiArguments(["--need-app"]), app: "import missing_module\n") { port, log in
                var outcome = try Reproduce.nginx(location: uwsgiPass(port))
                outcome.log += log()
                return outcome
            }
        },
        // nginx's uwsgi_params and a 5 kB cookie: more than uWSGI's 4 kB buffer-size. uWSGI
        // closes with the request unread, so nginx reads a reset (104), which none of the
        // worker kills above writes: they end in "upstream prematurely closed".
        .init(name: "nginx + uWSGI, request headers beyond its buffer-size", slugs: ["request-too-large"], status: 502) {
            try slowPython(
                server: "uwsgi_python3", app: view("pass"), uwsgiArguments(), options: ["-H", "Cookie: session=" + String(repeating: "x", count: 5000)],
                location: uwsgiPass)
        },
        // With --http-socket, uWSGI reads the request head into the same buffer: one larger
        // resets nginx's connection (nginx's line alone reads as a killed worker; uWSGI's says
        // why); one that fits, but not once made the variables the app
        // gets (each header's name prefixed HTTP_), is read whole and closed with no answer.
        .init(name: "nginx + uWSGI --http-socket, request headers beyond its buffer-size", slugs: ["request-too-large", "workers-killed"], status: 502) {
            try slowPython(
                server: "uwsgi_python3", app: view("pass"), uwsgiArguments(socket: "--http-socket"),
                options: ["-H", "Cookie: session=" + String(repeating: "x", count: 5000)], location: proxyPass)
        },
        .init(
            name: "nginx + uWSGI --http-socket, headers that fit its buffer-size but not as variables",
            slugs: ["request-too-large", "upstream-closed-connection"],
            status: 502
        ) {
            try slowPython(
                server: "uwsgi_python3", app: view("pass"), uwsgiArguments(socket: "--http-socket"),
                options: ["-H", "X-Trace: " + String(repeating: "x", count: 3900)], location: proxyPass)
        },
        .init(
            name: "nginx + uWSGI --http-socket, a Content-Type that fits its buffer-size but not as a variable",
            slugs: ["request-too-large", "upstream-closed-connection"], status: 502
        ) {
            try slowPython(
                server: "uwsgi_python3", app: view("pass"), uwsgiArguments(socket: "--http-socket"),
                options: ["-H", "Content-Type: " + String(repeating: "x", count: 3900)], location: proxyPass)
        },
        // uWSGI decodes the path of an address with a query string into the buffer after the
        // head: a long one does not fit twice.
        .init(
            name: "nginx + uWSGI --http-socket, a path too long to decode in its buffer-size", slugs: ["request-too-large", "upstream-closed-connection"],
            status: 502
        ) {
            try slowPython(
                server: "uwsgi_python3", app: view("pass"), uwsgiArguments(socket: "--http-socket"), path: "/" + String(repeating: "a", count: 2500) + "?q=1",
                location: proxyPass)
        },
        // Each variable takes two of uWSGI's max-vars × 4 slots: past about 128, with room in
        // the buffer, it reads the request and closes unanswered.
        .init(name: "nginx + uWSGI, more headers than its max-vars", slugs: ["request-too-large", "upstream-closed-connection"], status: 502) {
            try slowPython(
                server: "uwsgi_python3", app: view("pass"), uwsgiArguments(["--buffer-size", "32768"]),
                options: (1...120).flatMap { ["-H", "X-Header-\($0): v"] }, location: uwsgiPass)
        },
        // --limit-post refuses a body by the size the request announces: uWSGI closes unread
        // and nginx reads a reset, as for headers too large.
        .init(name: "nginx + uWSGI with --limit-post, a larger body", slugs: ["request-too-large"], status: 502) {
            try slowPython(
                server: "uwsgi_python3", app: view("pass"), uwsgiArguments(["--limit-post", "1000"]),
                options: ["--data-binary", String(repeating: "x", count: 5000)], location: uwsgiPass)
        },
        // --post-buffering keeps a body larger than it in a file in TMPDIR; with none to write
        // to, uWSGI closes unread, as for a body over --limit-post.
        .init(name: "nginx + uWSGI with --post-buffering, a body it has no folder to buffer in", slugs: ["request-too-large"], status: 502) {
            try slowPython(
                server: "uwsgi_python3", app: view("pass"), uwsgiArguments(["--post-buffering", "100"]), environment: ["TMPDIR": "/nonexistent"],
                options: ["--data-binary", String(repeating: "x", count: 5000)], location: uwsgiPass)
        },
        // A WSGI app must return bytes: uWSGI drops a str, logs it, and the visitor gets the
        // status and headers with an empty body.
        .init(name: "nginx + uWSGI, an application that returns text instead of bytes", slugs: ["application-errors"], status: 200) {
            try slowPython(server: "uwsgi_python3", app: view("pass", body: "'ok'"), uwsgiArguments(), location: uwsgiPass)
        },
        // uWSGI's own HTTP router in front of its worker reads the same reset, and says so; the
        // visitor gets no answer. (A worker killed by harakiri behind the router closes cleanly and
        // writes no such line: seen by hand, not yet a reproduction of its own.)
        .init(name: "uWSGI's HTTP router, request headers beyond its buffer-size", slugs: ["request-too-large"], status: 0) {
            try uwsgiRouter(app: view("pass"), options: ["-H", "Cookie: session=" + String(repeating: "x", count: 5000)])
        },
        // The answer is larger than the sockets' buffers, so uWSGI is still writing when nginx has closed.
        .init(name: "nginx + uWSGI, a visitor who leaves before a large answer", slugs: ["client-closed-request"], status: 0) {
            try slowPython(
                server: "uwsgi_python3", app: view("time.sleep(2)", body: "b'x' * 8_000_000", imports: "import time"), uwsgiArguments(),
                options: ["--max-time", "1"], settle: 2.5, location: uwsgiPass)
        },
        // uWSGI reads the first four bytes of "GET / HTTP/1.1" as its packet's header: the
        // size is "ET" read little-endian, 21573, larger than any buffer-size. It closes unread.
        .init(name: "nginx, proxy_pass to uWSGI's own protocol (--socket)", slugs: ["upstream-closed-connection"], status: 502) {
            try slowPython(server: "uwsgi_python3", app: view("pass"), uwsgiArguments(), location: { "location / { proxy_pass http://127.0.0.1:\($0); }" })
        },
        // With a buffer-size of 21573 or more, that size fits: uWSGI waits for the rest of a
        // packet that never comes, nginx times out and closes, and uWSGI logs the read that
        // ended with the last errno it saw.
        .init(
            name: "nginx, proxy_pass to uWSGI's own protocol with a large buffer-size", slugs: ["upstream-closed-connection", "upstream-timed-out"], status: 504
        ) {
            try slowPython(
                server: "uwsgi_python3", app: view("pass"), uwsgiArguments(["--buffer-size", "65535"]), settle: 0.5,
                location: { "location / { proxy_pass http://127.0.0.1:\($0); proxy_read_timeout 2s; }" })
        },
        // Debian's plain `uwsgi` loads no language plugin. It refuses a Python option on its
        // command line, but ignores one from an ini file or, here, the environment; it warns
        // that no request plugin is loaded and closes each request unanswered, naming the
        // plugin the packet asked for (0: Python's).
        .init(name: "nginx + uWSGI without its Python plugin", slugs: ["upstream-closed-connection", "application-errors"], status: 502) {
            try slowPython(
                server: "uwsgi", app: view("pass"), uwsgiArguments(app: false), environment: ["UWSGI_WSGI_FILE": "app.py"], location: uwsgiPass)
        },
        // A TLS handshake's first byte, 22, read as the plugin the packet asks for.
        .init(name: "uWSGI's own protocol asked with TLS", slugs: ["upstream-closed-connection"], status: 0) {
            try uwsgiAskedDirectly("https://127.0.0.1:PORT/", [["-k"]])
        },
        // Each method's second and third letters make another size; HTTP/2's preface, "PRI *",
        // one more. curl gets no answer at all.
        .init(name: "HTTP asked of uWSGI's own protocol, by each method and HTTP/2", slugs: ["upstream-closed-connection"], status: 0) {
            try uwsgiAskedDirectly(
                "http://127.0.0.1:PORT/",
                ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH"].map { ["-X", $0] } + [["--http2-prior-knowledge"]])
        },
        // The router gives the visitor no answer at all when the node cannot be reached.
        .init(name: "uWSGI's HTTP router, a node that refuses the connection", slugs: ["upstream-connection-refused"], status: 0) {
            try uwsgiRouter(to: LoopbackPort.free())
        },
        .init(name: "uWSGI's HTTP router, a node that never accepts the connection", slugs: ["upstream-connect-timeout"], status: 0) {
            try with(.neverAccepts) { try uwsgiRouter(to: $0.port) }
        },
        // uWSGI gives up writing after --socket-timeout; what arrived begins with the status line.
        .init(name: "uWSGI, a visitor who stops reading past --socket-timeout", slugs: ["client-closed-request"], status: 200) {
            try uwsgiToAVisitorWhoStopsReading()
        },
        .init(name: "uWSGI, a port another process holds", slugs: ["configuration-refused"], status: -1) {
            try with(.answers) { holder in
                try pythonServerThatExits("uwsgi_python3", uwsgiArguments(), app: view("pass"), port: holder.port) { _, log in .init(status: -1, log: log()) }
            }
        },
    ]
}
