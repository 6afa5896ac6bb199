import Foundation

/// A real nginx master process on 127.0.0.1, started in the foreground from a config text and
/// stopped by its PID. `{{PREFIX}}` in the config becomes its private folder.
public final class NginxServer {
    public let folder: TemporaryFolder
    private let process = Process()

    public init(config: String) throws {
        let executable = try RequiredTool.find("nginx")
        folder = try TemporaryFolder()
        let text = config.replacingOccurrences(of: "{{PREFIX}}", with: folder.path)
        try folder.write(["nginx.conf": text])
        process.executableURL = executable
        process.arguments = [
            "-p", folder.path + "/", "-c", folder.path + "/nginx.conf", "-e", folder.path + "/error.log", "-g", "daemon off; pid \(folder.path)/nginx.pid;",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// nginx's own words when it failed to start.
    public var errorLog: String { (try? folder.read("error.log")) ?? "" }
    public var accessLog: String { (try? folder.read("access.log")) ?? "" }

    /// False once nginx has exited, as it does at once when its configuration is refused.
    public var isRunning: Bool { process.isRunning }

    /// Asks nginx to quit and returns at once (`stop` later waits for it): for a backend that
    /// dies while a jailed varnishd runs, which keeps Foundation from reaping other children.
    public func quitWithoutWaiting() {
        if process.isRunning { kill(process.processIdentifier, SIGQUIT) }
    }

    /// Stops (SIGSTOP) or continues (SIGCONT) the worker processes, returning once each has
    /// stopped or runs again: a busy worker, pinned, so that what arrives meanwhile meets it in
    /// the order it arrived.
    public func signalWorkers(_ signal: Int32) {
        let workers = ServerProcess.signalChildren(of: process.processIdentifier, signal)
        let stopped = signal == SIGSTOP
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline, workers.contains(where: { ServerProcess.isStopped($0) != stopped }) { usleep(1_000) }
    }

    /// Sets each worker's open-files limit (soft and hard) so that exactly `free` more
    /// descriptors can be opened, whatever it opened to start. A new descriptor takes the
    /// lowest unused number and must be below the limit, so the limit is the unused number
    /// after the first `free` (holes left by closed ones count).
    /// (util-linux's `prlimit`: glibc's call is not reachable from Swift.)
    public func limitWorkersOpenFiles(free: Int) throws {
        let prlimit = try RequiredTool.find("prlimit")
        for worker in ServerProcess.signalChildren(of: process.processIdentifier, 0) {
            let open = Set(((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(worker)/fd")) ?? []).compactMap { Int($0) })
            var limit = 0
            var unused = 0
            while open.contains(limit) || unused < free {
                if !open.contains(limit) { unused += 1 }
                limit += 1
            }
            let result = try ProcessRunner.run(prlimit, ["--pid", String(worker), "--nofile=\(limit):\(limit)"], in: folder.url)
            guard result.status == 0 else { throw POSIXError(.EPERM) }
        }
    }

    public func stop() {
        if process.isRunning {
            // A worker a failed test left stopped would never quit.
            ServerProcess.signalChildren(of: process.processIdentifier, SIGCONT)
            kill(process.processIdentifier, SIGQUIT)
            process.waitUntilExit()
        }
        folder.remove()
    }

    /// An application that answers every request with `status` and `body`, on `port`.
    public static func application(port: Int, status: Int, body: String) throws -> NginxServer {
        try NginxServer(config: httpBlock("server { listen 127.0.0.1:\(port); location / { return \(status) \"\(body)\"; } }"))
    }

    /// The `http { … }` frame every test config needs: logs and temp paths inside the folder;
    /// one worker, with `workerConnections` connections.
    public static func httpBlock(_ servers: String, workerConnections: Int = 64) -> String {
        """
        worker_processes 1;
        events { worker_connections \(workerConnections); }
        http {
            access_log {{PREFIX}}/access.log;
            client_body_temp_path {{PREFIX}}/body;
            proxy_temp_path {{PREFIX}}/proxy;
            fastcgi_temp_path {{PREFIX}}/fastcgi;
            uwsgi_temp_path {{PREFIX}}/uwsgi;
            scgi_temp_path {{PREFIX}}/scgi;
            types { text/html html; }
            \(servers)
        }
        """
    }
}
