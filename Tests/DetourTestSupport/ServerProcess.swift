import Foundation

/// A real server started in the foreground on 127.0.0.1 and stopped by its PID: Caddy, HAProxy,
/// Apache or nginx from their Debian packages, run the way the README tells users to.
public final class ServerProcess {
    private let process = Process()
    private let output: URL

    /// - Parameters:
    ///   - tool: the executable's name, found on PATH (missing: skipped, or failed under CI=true).
    ///   - log: where its standard output and error go, for the failure message.
    public convenience init(_ tool: String, _ arguments: [String], environment: [String: String] = [:], log: URL) throws {
        try self.init(executable: RequiredTool.find(tool), arguments, environment: environment, log: log)
    }

    /// A program by its path, such as the `detour` just built (`detour serve`), run in `folder`.
    public init(executable: URL, _ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:], log: URL) throws {
        process.executableURL = executable
        if let folder { process.currentDirectoryURL = folder }
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        output = log
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    /// What the server printed so far.
    public var log: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    public var isRunning: Bool { process.isRunning }

    public var pid: Int32 { process.processIdentifier }

    /// How it exited (its status, or the signal that ended it), once it has.
    public var exit: (status: Int32, bySignal: Bool)? {
        process.isRunning ? nil : (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    /// Sends `signal` to the processes `parent` started (PHP-FPM's children, gunicorn's
    /// workers), found by their parent in /proc: a worker that crashes or is killed. Returns
    /// their PIDs.
    @discardableResult
    public static func signalChildren(of parent: Int32, _ signal: Int32) -> [Int32] {
        var children: [Int32] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let fields = statusFields(of: pid), Int32(fields.dropFirst().first ?? "") == parent else { continue }
            kill(pid, signal)
            children.append(pid)
        }
        return children
    }

    /// Whether `pid` is stopped by a signal.
    public static func isStopped(_ pid: Int32) -> Bool {
        statusFields(of: pid)?.first == "T"
    }

    /// The fields of /proc/PID/stat after the process's name (its state, its parent, …): the
    /// name may hold spaces, so they are read after its ")".
    private static func statusFields(of pid: Int32) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// SIGTERM to the PID we started, then wait: every one of these servers stops on it. One
    /// that is still running after 10 s (a server that reloads on SIGTERM) gets SIGKILL, so a
    /// test never hangs on it.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
