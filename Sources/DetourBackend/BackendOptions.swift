import ArgumentParser
import DetourLayout
import DetourSupport
import Foundation

/// The page service's command line, the same in `detour backend` and in `detour-backend`, the
/// small executable the container image runs.
public struct BackendOptions: ParsableArguments {
    public static let abstract = "Serve the built error pages as an HTTP service, for Kubernetes ingress controllers and proxies."
    public static let discussion = """
        Reads every page of the built site's errors/ into memory, then answers:

          ingress-nginx's custom errors: the page for X-Code (X-Format, else Accept, picks HTML, problem+json or text), with that status;
          GET /<status> and /<status>.html|json|txt, as Traefik's errors middleware asks with 'query: /{status}';
          GET / with no X-Code (ingress-nginx's default backend, for hosts no rule matches): the 404 page, with 404;
          /healthz and /readyz (200 once the pages are read), /metrics (Prometheus: pages served by status, format and language).

        The language is the best of Accept-Language among the site's; every answer is Cache-Control: no-store, with Retry-After where the code defines one, and the request's X-Request-ID on the page and in the JSON. A status with no page of its own gets its class's page (500's for a 5xx, 404's for a 4xx) with its own status; an X-Code that is not a status from 400 to 599 gets 400 with the reason. No answer is ever 200 for an error, and no file is opened after start. One JSON line per request goes to standard output. SIGTERM stops accepting and finishes the requests in flight.
        """

    @Option(name: .customLong("public"), help: "The built site (detour build's output) whose errors/ to serve.")
    var publicFolder = SiteLayout.defaultOutput

    @Option(help: "Port to listen on.")
    var port = 8080

    @Option(help: "Address to listen on: every interface by default, as a pod's service must; 127.0.0.1 for this machine only.")
    var bind = "0.0.0.0"

    @Flag(name: .customLong("no-access-log"), help: "Write no JSON line per request.")
    var noAccessLog = false

    public init() {}

    public func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port takes 1 to 65535, not \(port)") }
        if let problem = ServerWait.bindProblem(bind, example: "0.0.0.0 or 127.0.0.1") { throw ValidationError(problem) }
    }

    /// Serves until SIGTERM or SIGINT, waiting on the main thread (`ServerWait`); a failure to
    /// start is said as `command` and exits 1.
    public func run(as command: String) throws {
        let service = PageService(publicFolder: URL(fileURLWithPath: publicFolder), bind: bind, port: port, logRequests: !noAccessLog)
        if let failure = ServerWait.run({ try await service.run() }) {
            FileHandle.standardError.write(Data("\(command): \(failure)\n".utf8))
            throw ExitCode(1)
        }
    }
}
