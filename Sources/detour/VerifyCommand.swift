import ArgumentParser
import DetourDiagnostics
import DetourProxyCore
import DetourVerify
import Foundation
import Synchronization

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Run the real server on a copy of a configuration and judge what visitors get.",
        discussion: """
            Use 'detour verify nginx <nginx.conf>', 'detour verify caddy <Caddyfile>', 'detour verify haproxy <haproxy.cfg>', 'detour verify apache <apache2.conf>' or 'detour verify varnish <default.vcl>'. Where 'detour check' reads a configuration and predicts, 'detour verify' runs the installed server on it: the configuration and every file it includes are copied into a sandbox folder and only what a local run needs is rewritten (every listen address to a free port on 127.0.0.1, TLS and listen options dropped; every upstream to detour's fake one, which speaks HTTP, FastCGI, uwsgi and SCGI, gRPC and memcached to an address where nothing listens; the location an auth_request asks to an auth service that lets every probe in; pid, logs, temporary and cache paths into the sandbox; root and alias through --map, or an empty folder; timeouts above 3 s shortened to 3 s; as root, workers run as nobody). Caddy adapts the sandboxed Caddyfile to JSON itself, and that is rewritten: the admin endpoint off, storage and log files into the sandbox, no TLS app and no automatic HTTPS, every server on a free port on 127.0.0.1, every reverse_proxy upstream to the fake one (php_fastcgi's speaking FastCGI), root through --map. HAProxy's lines are rewritten whole: bind addresses to free ports on 127.0.0.1 (bind options dropped), server lines to the fake upstream without their options (a FastCGI backend's speaking FastCGI), default-server, daemon, chroot, pidfile, stats socket and user out of the way, errorfile and 'return … file' paths through --map, timeouts above 3 s shortened. Apache's lines are rewritten whole too: Listen and <VirtualHost> addresses to free ports, every proxied URL (ProxyPass, BalancerMember, a proxy: handler, a [P] RewriteRule) to the fake upstream (fcgi, scgi and uwsgi speaking that protocol, AJP where nothing listens), mod_ssl's directives out, pid, log, mutex and runtime paths and Debian's APACHE_* variables into the sandbox, User and Group to nobody, DocumentRoot, Alias and <Directory> through --map, ServerRoot and absolute Includes to their copies, Timeout above 3 s to 3 s. In VCL, each backend's .host and .port (or .path) become the fake upstream, its .probe and .proxy_header go, its timeouts above 3 s become 3 s, std.fileread paths are read through --map; varnishd listens on a free port on 127.0.0.1 (-a), which is asked for '/'. Every rewrite is listed.

            Then every server is asked (GET, POST with a form's body, HEAD), on each of its ports with its first name as Host, for '/' and the path of each prefix and exact location that is not internal, and a path nginx routes to each regular-expression location, or of each Caddy handle, handle_path, route and reverse_proxy with a path (or a named matcher's path), or of each HAProxy use_backend whose condition names a path or a Host, or of each Apache ProxyPass and <Location> (a matching path for <LocationMatch>, a file name for <FilesMatch>), and each local ErrorDocument page, while the fake upstream answers 200, does not listen, answers 500, 502, 503 and 504 with a body of its own, says nothing, closes in the middle of its body, and sends a header line no proxy can read (nginx, Caddy, HAProxy and Apache answer their own 502). Each error page's own URI is asked for too, unless its location is internal. Each answer's status and body are recorded: one of detour's pages (--pages, byte for byte), the upstream's own body, the server's built-in error page, the site's own body, or nothing.

            Findings use detour check's rule ids and severities: <server>.code-not-covered (a status with a page answered without one), <server>.upstream-errors-pass-through (the upstream's own error body reached visitors), <server>.error-page-missing-file (a page's URI, or a failure that reached the upstream, answering 404), nginx.error-page-not-internal (a page's URI answering visitors), <server>.error-page-soft-status (a page sent with a success status), nginx.error-page-undefined-named-location (nginx's error log says it could not find the named location), caddy.error-page-missing-file and caddy.error-page-proxied (Caddy's log says handle_errors found no file, or its proxy failed); each with the probes, or the log line, that show it.

            Nothing outside the sandbox is written; mapped folders are read (as root, copied into the sandbox, so the workers can read them). Every process started is stopped by its PID (its workers, in the process group it leads, with it) and the sandbox removed on success, failure, Ctrl-C and timeout; a server that does not start is refused with what it and its error log said. What the server's own test refuses in the sandboxed copy (nginx -t; caddy adapt and validate; haproxy -c; apache2 -t; varnishd -C) is a finding at the original file and line (nginx.syntax, nginx.directive, nginx.include-missing; caddy.syntax, caddy.directive, caddy.import; haproxy.syntax, haproxy.error-page-missing-file, haproxy.errorfile-invalid, haproxy.errorfile-code; apache.syntax; varnish.syntax); where the server stops at its first refusal, the refused statement (or only the parameter it names) is blanked in the copy and the test asked again, until it passes or meets a syntax error, so every refusal is listed. A configuration the server refuses is not run, unless it is written for NGINX Plus or a later Caddy (2.8's root and handle_errors forms): then it also runs with those lines blanked, as detour check judges it. Exit status: 0 clean, 1 findings (warnings too with --strict), 2 when the server is not installed or the configuration needs what this machine lacks, such as a dynamic module (why is printed), 64 usage.

            With --compare-check the configuration is also read as 'detour check' reads it, and where that reading and the real server disagree on the rules verify observes (missed, false alarm, severity, place) is listed after the table, and as check_disagreements in the JSON; it does not change the exit status.
            """
    )

    @Argument(help: "The server (nginx, caddy, haproxy, apache or varnish), then its main configuration file.")
    var arguments: [String] = []

    @OptionGroup var pageOptions: PageOptions

    @Option(
        name: .customLong("server-binary"), help: ArgumentHelp("The server binary to run (default: the server's on PATH or in /usr/sbin).", valueName: "PATH"))
    var serverBinary: String?

    @Option(help: ArgumentHelp("Seconds one probe may take.", valueName: "S"))
    var timeout: Double = 10

    @Flag(name: .shortAndLong, help: "Print findings only, without the rewrites and the table of answers.")
    var quiet = false

    @Flag(
        name: .customLong("compare-check"),
        help:
            "Also read the configuration as 'detour check' does and list where that reading and the real server disagree, on the rules verify observes: missed, false alarm, severity, place."
    )
    var compareCheck = false

    @OptionGroup var diagnostics: DiagnosticOptions

    func validate() throws {
        guard arguments.count == 2 else { throw ValidationError("give the server and the configuration file: detour verify nginx nginx.conf") }
        guard VerifyServer.all.contains(where: { $0.name == arguments[0] }) else {
            throw ValidationError("detour verify runs \(VerifyServer.all.map(\.name).joined(separator: ", ")); '\(arguments[0])' is none of them")
        }
        guard timeout > 0 else { throw ValidationError("--timeout takes a number of seconds above 0, not \(timeout)") }
    }

    func run() throws {
        let server = VerifyServer.all.first { $0.name == arguments[0] }!
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let absolute = { (path: String) in path.hasPrefix("/") ? URL(fileURLWithPath: path) : cwd.appendingPathComponent(path) }
        let main = absolute(arguments[1])
        guard FileManager.default.fileExists(atPath: main.path) else { throw ValidationError("configuration file '\(arguments[1])' does not exist") }
        let pagesPath = pageOptions.pagesPath(in: cwd)
        if let pagesPath, PageFolder.codes(in: absolute(pagesPath)).isEmpty {
            throw ValidationError("no <status>.html pages in '\(pagesPath)'; build them with 'detour build' or name the folder with --pages")
        }
        let maps = pageOptions.pathMaps.map {
            PagePathMap(installPath: $0.installPath, localPath: absolute($0.localPath).standardizedFileURL.path)
        }
        let options = Verifier.Options(
            main: main, mainDisplay: arguments[1], pages: pagesPath.map(absolute), pagesDisplay: pagesPath ?? "", maps: maps, binary: serverBinary,
            probeTimeout: timeout, budget: max(60, timeout * 30))
        let interruption = Self.cleanUpOnSignals()
        defer { interruption.forEach { $0.cancel() } }
        let report = Self.wait { await Verifier.verify(server, options) }
        VerifyCleanup.parkIfInterrupted()
        if let refusal = report.refusal {
            FileHandle.standardError.write("detour verify: \(refusal)\n")
            throw ExitCode(2)
        }
        if !quiet, diagnostics.format == .text {
            // Unbuffered, as the findings after it are: the table goes out first, whole.
            FileHandle.standardOutput.write(Data(VerifyText.render(report).utf8))
        }
        var extra: [String: any Encodable & Sendable] = [
            "rewrites": report.rewrites.map { VerifyText.Located(location: $0.location, text: $0.reason) },
            "not_probed": report.notProbed.map { VerifyText.Located(location: $0.location, text: $0.reason) },
            "observations": report.observations.map(VerifyText.Answer.init),
        ]
        if compareCheck, let dialect = CheckCommand.dialects.first(where: { $0.name == server.name }) {
            let checked = dialect.check(
                ProxyCheck.Options(main: main.standardizedFileURL, mainDisplay: arguments[1], pages: pagesPath.map(absolute), maps: pageOptions.pathMaps))
            let disagreements = CheckAgreement(server).disagreements(checked: checked.diagnostics, verified: report)
            extra["check_disagreements"] = disagreements.map(VerifyText.Disagreement.init)
            if diagnostics.format == .text { FileHandle.standardOutput.write(Data(VerifyText.render(disagreements).utf8)) }
        }
        let status = diagnostics.report(report.diagnostics, catalogue: server.catalogue, extra: extra)
        throw ExitCode(status)
    }

    /// The result of `work`, waited for on this thread (the commands are synchronous; the
    /// probes run on the cooperative pool).
    private static func wait<Result: Sendable>(_ work: @escaping @Sendable () async -> Result) -> Result {
        let result = Mutex<Result?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let value = await work()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    /// Ctrl-C and SIGTERM stop what the run started and remove its sandbox before exiting.
    private static func cleanUpOnSignals() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { VerifyCleanup.interrupt(exitStatus: 128 + number) }
            source.resume()
            return source
        }
    }
}
