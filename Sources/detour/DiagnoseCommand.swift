import ArgumentParser
import DetourContent
import DetourDiagnostics
import DetourLogs
import Foundation
import Synchronization

struct DiagnoseCommand: ParsableCommand {
    enum Format: String, ExpressibleByArgument { case text, json }

    static let configuration = CommandConfiguration(
        commandName: "diagnose",
        abstract: "Map error-log lines to the articles that explain them.",
        discussion: """
            Reads error logs from nginx, Apache, HAProxy (raw or through syslog, option httplog or its common log format), Caddy (JSON lines), PHP-FPM, gunicorn and uWSGI, and Varnish's failed fetches as varnishlog and varnishncsa print them (FetchError), mixed in one stream, as they are, through syslog or journald, or as docker compose logs, docker logs -t, kubectl logs --timestamps or --prefix and a log store's export show them, and matches every line against the log_patterns of the articles in <content>. A pattern is a piece of a real log line: numbers, addresses with ports and paths in it stand for any number, address and path, so 'connect() failed (111: Connection refused)' also matches the line for another errno, and '127.0.0.1:8080' any upstream; '…' stands for any text ('SSL_do_handshake() failed (…) while SSL handshaking to upstream'); text between backticks stays as written, numbers included ('signal `9`'); HAProxy's termination state written with dashes for its cookie flags ('sH--') matches whatever flags a persistence cookie leaves ('sHVN'). An errno's text is read in glibc's words and in musl's ('(110: Operation timed out)' on Alpine).

            Lines of one request count as one incident where the log says which request a line belongs to (nginx's worker and connection, Apache's process and thread, PHP-FPM's child) and they were written in the same second: a warning or error after a line an article explains, from the same request, counts under that article whatever it would match alone (Apache's AH01114 after the AH00957 that says why, nginx's 'upstream server temporarily disabled' after 'connect() failed', PHP-FPM's 'exited on signal 15' after 'execution timed out'). nginx's 'request: "GET /x.php HTTP/1.1"' and PHP-FPM's '(request: "GET /x.php")' in the same second of the day are one incident too, whichever file comes first. A line that continues the one before it (a stack trace's indented frames, a Python traceback up to its exception, uWSGI's backtrace and harakiri report) goes where that line went. Upstreams are named without the request's path.

            Prints the causes found, the one that explains the most lines first, each with the article's title and help-site URL, the statuses visitors see (the article's, and those the lines themselves say: HAProxy's request log, Caddy's JSON), the count of lines and incidents, the first and last time, the upstreams and sockets the lines name, an example line and the command that confirms the cause on this machine (the article's confirm, for the server that wrote most of the lines, with the upstream they name most and its port filled in); then the routine lines no article explains (a server starting, stopping or reading its configuration, and its notices about its libraries, modules and host name: warn or below outside any request, HAProxy's NOTICE and configuration warnings, PHP-FPM's NOTICE, Varnish's Info and Debug, uWSGI's start-up and worker lines, and access log lines of requests answered as asked: below 400, or 404), counted and left alone; then how many other lines no article explains, and their most frequent shapes. --format json prints {lines, overlong, causes: [{slug, title, url, statuses, count, incidents, first, last, upstreams: [{upstream, count}] (at most \(Diagnosis.maximumUpstreams)), confirm, logged_statuses: [{status, count}], lines (the first \(Diagnosis.keptLines))}], routine: {count}, unexplained: {count, shapes}}.

            Without a file, or with '-', reads standard input. Lines longer than 64 KiB are counted, not matched. Exit status: 0 when the logs were read, 1 when a file could not be read or the content has errors.
            """
    )

    @Argument(help: "Log files to read; '-' or none for standard input.")
    var files: [String] = []

    @Option(help: "The content folder whose articles' log_patterns explain the lines.")
    var content = "content"

    @Option(help: "How to print the causes: text or json.")
    var format: Format = .text

    @Flag(help: "Keep reading the (last) file as it grows, and print the causes on Ctrl-C.")
    var follow = false

    @Option(help: "Shapes of unexplained lines to list.")
    var shapes = 5

    func validate() throws {
        guard shapes >= 0 else { throw ValidationError("--shapes takes a count of 0 or more, not \(shapes)") }
    }

    func run() throws {
        let root = URL(fileURLWithPath: content, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        let (loaded, problems) = ContentLoader(root: root, displayRoot: content).load()
        guard let loaded else {
            FileHandle.standardError.write(DiagnosticFormat.text.render(problems, toolVersion: Detour.version))
            throw ExitCode(1)
        }
        let causes = loaded.articles.filter { !$0.logPatterns.isEmpty }.map { article in
            LogCause(
                slug: article.slug, title: article.title, url: loaded.site.baseURL + article.sitePath, statuses: article.codes.map(\.value),
                patterns: article.logPatterns.map(\.value), confirmation: article.confirmation)
        }
        var diagnosis = Diagnosis(causes: causes)
        var failures: [String] = []
        let sources = files.isEmpty ? ["-"] : files
        for (index, file) in sources.enumerated() {
            let descriptor = file == "-" ? STDIN_FILENO : open(file, O_RDONLY)
            guard descriptor >= 0 else {
                failures.append("\(file): cannot open: \(String(cString: strerror(errno)))")
                continue
            }
            var reader = LogLineReader(descriptor: descriptor)
            let following = follow && index == sources.count - 1
            // Ctrl-C ends the following, and only that.
            if following { Self.stopOnInterrupt() }
            defer { if following { signal(SIGINT, SIG_DFL) } }
            let read = reader.read(follow: following, until: { Self.interrupted.load(ordering: .relaxed) }) { event in
                switch event {
                case .line(let line): diagnosis.read(line)
                case .overlong: diagnosis.readOverlong()
                }
            }
            if !read { failures.append("\(file): reading failed: \(String(cString: strerror(errno)))") }
            if descriptor != STDIN_FILENO { close(descriptor) }
        }
        for failure in failures { FileHandle.standardError.write("detour diagnose: \(failure)\n") }
        print(render(diagnosis), terminator: "")
        if !failures.isEmpty { throw ExitCode(1) }
    }

    func render(_ diagnosis: Diagnosis) -> String {
        format == .json ? DiagnosisText.json(diagnosis, shapes: shapes) : DiagnosisText.text(diagnosis, shapes: shapes)
    }

    // MARK: --follow

    /// Ctrl-C while following ends the reading; the causes are printed as for a finished log.
    private static let interrupted = Atomic<Bool>(false)

    /// A handler in place when this returns: a signal source would start listening later, and
    /// a Ctrl-C in between would be lost with the following never ending. It only sets the
    /// flag (a lock-free store, safe in a handler); the reader looks at it as it waits.
    private static func stopOnInterrupt() {
        signal(SIGINT) { _ in DiagnoseCommand.interrupted.store(true, ordering: .relaxed) }
    }
}
