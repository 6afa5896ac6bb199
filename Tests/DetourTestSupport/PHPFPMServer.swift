import Foundation

/// A real PHP-FPM 8.2 pool on a unix socket in its own folder, set up as a production pool is
/// (errors logged, not displayed), with `scripts` as its document root, stopped by its PID.
public final class PHPFPMServer {
    public let folder: TemporaryFolder
    private let server: ServerProcess

    /// The FastCGI socket nginx's `fastcgi_pass unix:` and Apache's `proxy:unix:` point at.
    public var socket: String { folder.path + "/php8.2-fpm.sock" }
    /// The scripts' folder, nginx's `root` and Apache's `DocumentRoot`.
    public var documentRoot: String { folder.path + "/www" }
    /// PHP-FPM's own log (its master's warnings about children and the pool).
    public var log: String { (try? folder.read("php-fpm.log")) ?? "" }
    /// What it wrote to its standard output and error before its log was open (PHP's own
    /// start-up warnings).
    public var output: String { (try? folder.read("stdout.log")) ?? "" }

    /// - Parameters:
    ///   - scripts: file name → PHP source, written into the document root.
    ///   - pool: extra pool settings, one per line (`pm.max_children = 1`, …).
    ///   - arguments: more of php-fpm's options (`-d extension=…`).
    public init(scripts: [String: String], pool: String = "", arguments: [String] = []) throws {
        folder = try TemporaryFolder()
        try folder.write(scripts.reduce(into: [:]) { $0["www/" + $1.key] = $1.value })
        try folder.write([
            "php-fpm.conf": """
            [global]
            error_log = \(folder.path)/php-fpm.log
            daemonize = no
            [www]
            listen = \(folder.path)/php8.2-fpm.sock
            listen.mode = 0666
            pm = dynamic
            pm.max_children = 2
            pm.start_servers = 1
            pm.min_spare_servers = 1
            pm.max_spare_servers = 1
            catch_workers_output = yes
            php_admin_flag[display_errors] = off
            php_admin_flag[log_errors] = on
            \(pool)

            """
        ])
        chmod(folder.path, 0o755)
        // -R: the tests run as root under CI; -n: no php.ini, the pool above says what matters.
        server = try ServerProcess(
            "php-fpm8.2", ["-R", "-n"] + arguments + ["-y", folder.path + "/php-fpm.conf"], log: folder.url.appendingPathComponent("stdout.log"))
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: socket), Date() < deadline { usleep(20_000) }
    }

    /// The master's PID: its children are the pool's workers.
    public var pid: Int32 { server.pid }

    public func stop() {
        server.stop()
        folder.remove()
    }
}
