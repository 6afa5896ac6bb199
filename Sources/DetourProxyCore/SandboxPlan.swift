import DetourDiagnostics

/// What a dialect says a local run of a configuration needs (`detour verify`): the files to copy
/// into the sandbox, every rewrite of their text with its reason, the sites and routes to probe,
/// and what cannot be probed. Rewrites change only what a run on 127.0.0.1 needs: addresses,
/// upstreams, state and log paths, installed paths (`--map`).
public struct SandboxPlan: Sendable {
    /// How each route is asked: as a page is read, as a form is sent, and for its headers only.
    public static let probedMethods = ["GET", "POST", "HEAD"]
    /// A file the configuration reads: where it is, and how findings name it.
    public struct File: Sendable {
        public var path: String
        public var displayPath: String

        public init(path: String, displayPath: String) {
            self.path = path
            self.displayPath = displayPath
        }
    }

    /// Bytes `range` of file `file` replaced by `text` (an empty range inserts it).
    public struct Rewrite: Sendable {
        public var file: Int
        public var range: Range<Int>
        public var text: String
        /// What was there and why it changed, as the report lists it.
        public var reason: String
        public var location: SourceLocation

        public init(file: Int, range: Range<Int>, text: String, reason: String, location: SourceLocation) {
            self.file = file
            self.range = range
            self.text = text
            self.reason = reason
            self.location = location
        }
    }

    /// A path a site answers, and where the configuration says so.
    public struct Route: Sendable {
        public var path: String
        public var location: SourceLocation
        /// Where the route hands requests to the upstream (`proxy_pass`), when it does.
        public var upstreamLocation: SourceLocation?
        /// Where the route answers in place of the upstream's response, when it does (Caddy's
        /// `handle_response`): what turns an upstream's failure into something else.
        public var responseLocation: SourceLocation?
        /// By method, where this route's requests leave the server's error handling (Varnish's
        /// `return (pipe)`): the upstream's errors that pass are named there, before the site's
        /// place.
        public var passThroughByMethod: [String: SourceLocation] = [:]
        /// When the path is an error page's own URI: what asking for it directly tells.
        public var page: PageTarget?
        /// For each code the configuration names an error page for where this route's requests
        /// end up, the line that names it, when the dialect knows: an upstream's error that
        /// passes through with one of them is the upstream's pass-through, without one the code
        /// is not covered; a failure answered with a success is that line's.
        public var pageLines: [Int: SourceLocation]?
        /// The rule an upstream's error without a page is, beside the code not covered, where
        /// the route intercepts the upstream's errors (nginx's `proxy_intercept_errors on`).
        public var intercepting: String?
        /// For each status the server answers in this route's place with a redirect rather than
        /// a page (HAProxy's `errorloc`), the line that says so: an upstream's failure answered
        /// with a redirect is that line's `SandboxPlan.redirectRule`.
        public var redirects: [Int: SourceLocation] = [:]
        /// Pages that are whole responses, status line included (HAProxy's `errorfile`), by
        /// the status they answer here: for the server's own errors, and for the upstream's it
        /// replaces. One of them sent with a success is its file's status line, the plan's
        /// `statusLineRule` at the line that names it.
        public var rawPages: (own: [Int: SourceLocation], upstream: [Int: SourceLocation]) = ([:], [:])
        /// Where the route's location names error pages of its own, dropping the ones it would
        /// inherit for `codes` (nginx: an `error_page` in a location replaces every inherited
        /// one): one of those answered with the server's built-in page (a 404, an access rule's
        /// 403, a password's 401) is the dialect's `rule` at `location`.
        public var droppedPages: (location: SourceLocation, codes: Set<Int>, rule: String)?
        /// Whether the path is a file asked for because it is not there (no placeholder is made
        /// for it): the 404 it meets shows which page answers.
        public var asksMissingFile = false
        /// Where a server-level statement at `location` answers the route with one of `codes`
        /// and, run again for the internal redirect to that code's page, refuses the page too
        /// (nginx's `if ($request_uri ~ …) { return 403; }`): one of them answered with the
        /// server's built-in page is the dialect's `rule` there.
        public var rerunPages: (location: SourceLocation, codes: Set<Int>, rule: String)?
        /// A path only the sandbox has, where the server answers this code as it raises it
        /// itself (a rate limit's 429, a body size's 413): visitors meet its page only then, and
        /// the page's location is internal, so asking for it tells nothing. Asked once, by GET.
        public var raises: Int?
        /// Where the dialect names a finding of each shared check about this route's answers,
        /// when not at the site or the route: for what the server answers on its own (the
        /// upstream failed, or was never asked), and for each status of the upstream's own
        /// (Varnish: a code not covered at the `return` that raised it, a page's missing file
        /// at the `std.fileread` that reads it), and where an upstream that breaks its answer
        /// off meets another way than one that fails at once (Varnish: `vcl_synth`'s).
        public var places: (own: [SharedCheck: SourceLocation], upstream: [Int: [SharedCheck: SourceLocation]], brokenOff: [SharedCheck: SourceLocation]?) = (
            [:], [:], nil
        )
        /// The same places for a form whose body reached the upstream (every upstream mode but
        /// one that does not listen), where the dialect says they differ (Varnish cannot retry
        /// a fetch whose body it did not keep: a `return (retry)` fails it there).
        public var formPlaces: (own: [SharedCheck: SourceLocation], upstream: [Int: [SharedCheck: SourceLocation]])?

        public init(
            path: String, location: SourceLocation, upstreamLocation: SourceLocation? = nil, responseLocation: SourceLocation? = nil, page: PageTarget? = nil,
            pageLines: [Int: SourceLocation]? = nil
        ) {
            self.path = path
            self.location = location
            self.upstreamLocation = upstreamLocation
            self.responseLocation = responseLocation
            self.page = page
            self.pageLines = pageLines
        }
    }

    /// An error page's URI, asked for directly: its file should be there (a 404 says it is not,
    /// at the line that names the page), and, where the dialect has such a rule, visitors
    /// should not get it as a page of its own (`reachableRule`, at the route's place).
    public struct PageTarget: Sendable {
        public var codes: [Int]
        public var directive: SourceLocation
        public var reachableRule: String?
        /// Whether the dialect found no file where the URI is served from locally (Apache: under
        /// DocumentRoot or an Alias): the upstream answering the URI is then the missing file's
        /// doing (a `RewriteCond … !-f` proxies what is not there), and that is the finding.
        public var fileMissing = false
        /// The dialect's rule for a page URI something other than a file answers (nginx's
        /// `return` in the location it falls into): asked for, the site's own answer shows it.
        public var returnedRule: String?

        public init(codes: [Int], directive: SourceLocation, reachableRule: String?) {
            self.codes = codes
            self.directive = directive
            self.reachableRule = reachableRule
        }
    }

    /// A site as visitors reach it: the name in their Host header, the port it listens on in
    /// the sandbox, where it is written, and its routes.
    public struct Site: Sendable {
        public var host: String
        public var port: Int
        public var location: SourceLocation
        public var routes: [Route]
        /// Whether it is asked over TLS: its listener keeps TLS with the sandbox's certificate.
        public var tls = false
        /// Headers in effect where the site's error pages are served that the server adds to
        /// successful answers only (nginx's `add_header` without `always`), each with its line
        /// and the dialect's rule: seen on the site's successes, missing from its errors.
        public var successHeaders: [(name: String, location: SourceLocation, rule: String)] = []
        /// Where the upstream's own errors passing to visitors is one cause for every route of
        /// the site, when the dialect says so (Apache: the virtual host proxies without
        /// `ProxyErrorOverride On`, named at its first proxying line; Caddy: at its first proxy
        /// without `handle_response`): each route's pass-through
        /// is named there, not at the route's own upstream.
        public var passThroughLocation: SourceLocation?
        /// The client address the probes declare (the PROXY protocol, which the sandbox has
        /// the listener accept), where the configuration refuses 127.0.0.1 and lets this one in.
        public var clientAddress: String?

        public init(host: String, port: Int, location: SourceLocation, routes: [Route]) {
            self.host = host
            self.port = port
            self.location = location
            self.routes = routes
        }
    }

    public var files: [File] = []
    /// The main file the server runs in the first file's place when that file is a part of one
    /// (nginx's site file, which an http block includes): where it is written in the sandbox,
    /// and what it says.
    public var wrapper: (path: String, text: String)?
    public var rewrites: [Rewrite] = []
    /// Folders the sandbox must have though no file is copied into them (Apache's ServerRoot).
    public var folders: [String] = []
    /// Empty files made in the sandbox's stand-ins for installed folders that are not mapped
    /// (the application's files an upstream's `try_files` looks for).
    public var placeholders: [(file: String, location: SourceLocation, reason: String)] = []
    /// What the server's command line adds, which no file of the configuration holds (Varnish's
    /// listen address, `-a`, and where it looks for includes).
    public var arguments: [String] = []
    public var sites: [Site] = []
    /// Statuses the server raises itself when an upstream fails (nginx's 502 and 504), which
    /// `detour check` does not count as an upstream's pass-through where a page covers them:
    /// visitors meet those from the server, with the page.
    public var serverRaisedStatuses: Set<Int> = []
    /// Whether the dialect's pass-through check counts an upstream's error no page is named
    /// for (Apache: a site proxies without `ProxyErrorOverride On`), not only one whose page
    /// does not apply to it (nginx without `proxy_intercept_errors`): a route that does not
    /// intercept passes it, and a page would not change what visitors get.
    public var unnamedStatusesPass = false
    /// Where `unnamedStatusesPass`, the statuses the server raises itself for a site that
    /// proxies, whether or not a probe can make it (Apache's mod_proxy: 500, 502, 503, and 504
    /// for FastCGI or AJP), as `detour check` counts them: the upstream's own one of them
    /// without a page names the code as not covered as well.
    public var ownErrorStatuses: Set<Int> = []
    /// Answers the server sends itself, empty, past every page (Apache's mod_proxy_fcgi
    /// answers a FastCGI upstream's unreadable header with an empty 500 of its own, so no
    /// ErrorDocument runs): the upstream mode that makes one, by name (`FakeUpstream.Mode`'s
    /// description), and the status. No configuration changes them: not judged, and said so.
    public var unreplaceableAnswers: [(mode: String, status: Int, reason: String)] = []
    /// A line the server writes to its error log when it meets what one of `detour check`'s
    /// rules is about and no answer tells apart by itself (nginx's `could not find named
    /// location "@down"`, answered as any 500; Caddy's `handle_errors` finding no file, answered
    /// with an empty body): a line holding every one of `parts`, met in the sandbox's error
    /// logs after the probes, is that rule's finding at `location` (none without a rule: the
    /// line then only says whose the answers are).
    public struct LogSignature: Sendable {
        public var parts: [String]
        public var rule: String?
        public var message: String
        public var location: SourceLocation
        /// The sites whose error pages the finding says are broken (indices into `sites`):
        /// their answers without a page are that finding's, not codes left uncovered.
        public var brokenPagesOf: Set<Int> = []
        /// The sites whose error pages the finding says the failing upstream was asked for:
        /// their answers without a page are that finding's, and, as `detour check` has it, they
        /// have no page of their own for the upstream's errors to pass in place of.
        public var upstreamPagesOf: Set<Int> = []

        public init(parts: [String], rule: String?, message: String, location: SourceLocation) {
            self.parts = parts
            self.rule = rule
            self.message = message
            self.location = location
        }
    }

    public var logSignatures: [LogSignature] = []
    /// The server's error logs in the sandbox, relative to its folder.
    public var errorLogs: [String] = []
    /// The dialect's rule for an error answered with a redirect (`Route.redirects`).
    public var redirectRule: String?
    /// The dialect's rule for a raw page whose status line is not its code (`Route.rawPages`).
    public var statusLineRule: String?
    /// What is not probed, and why (a regex location, a FastCGI upstream).
    public var notProbed: [(location: SourceLocation, reason: String)] = []
    /// What the reading found that keeps the configuration from running at all, where the
    /// server itself would not say it (an include cycle nginx never finishes reading), as the
    /// dialect's findings; empty when it can run. Other errors are left to the server's test.
    public var blockingFindings: [Diagnostic] = []
    /// Whether the server's routing reads the whole URL, query included (Varnish's `req.url`):
    /// a probe then carries its mark in a header (`markHeader`), not in its query, so that a
    /// test such as `req.url == "/health"` sees the path as written.
    public var marksInHeader = false
    public static let markHeader = "X-Detour-Probe"

    public init() {}
}

/// What a dialect's sandbox planner is told: where the sandbox is, where the fake upstream
/// listens, a port where nothing listens, the free port each listen address gets, and the
/// installed paths to read from local folders.
public struct SandboxContext: Sendable {
    /// The sandbox folder: the configuration's files are copied under `root` + their absolute path.
    public var folder: String
    public var upstream: String
    public var deadUpstream: String
    /// The fake upstream's address for each gateway protocol (`fastcgi`, `uwsgi`, `scgi`);
    /// one not given is sent where nothing listens.
    public var gateways: [String: String] = [:]
    /// An auth service's address (where nginx's `auth_request` and Caddy's `forward_auth` ask): one that lets every
    /// request in, so the routes behind it are probed; nil: the fake upstream.
    public var admitting: String?
    /// The throwaway certificate TLS listeners keep TLS with; nil: they are made plain HTTP.
    public var certificate: SandboxCertificate?
    public var maps: [PagePathMap]
    /// The codes the pages folder has pages for.
    public var pageCodes: [Int] = []
    /// Whether the server runs as root (its workers are then made to run as nobody).
    public var asRoot: Bool
    /// Where the server's relative paths start on the machine it runs on (nginx's `--prefix`,
    /// `/usr/share/nginx` on Debian): a relative `root html` is read there, through `--map`.
    public var serverPrefix: String
    /// The sandbox's port for a listen address as written (`80`, `[::]:443`, `unix:/run/x.sock`):
    /// the same address gets the same port.
    public var port: @Sendable (String) -> Int

    public init(
        folder: String, upstream: String, deadUpstream: String, maps: [PagePathMap], asRoot: Bool, serverPrefix: String,
        port: @escaping @Sendable (String) -> Int
    ) {
        self.folder = folder
        self.upstream = upstream
        self.deadUpstream = deadUpstream
        self.maps = maps
        self.asRoot = asRoot
        self.serverPrefix = serverPrefix
        self.port = port
    }

    /// Where the configuration's file `path` is copied.
    public func copy(of path: String) -> String { folder + "/root" + path }

    /// Where an upstream speaking `gateway` (`fastcgi`, `uwsgi`, `scgi`) is sent.
    public func upstream(speaking gateway: String) -> String { gateways[gateway] ?? deadUpstream }
}

/// What a server's own test said of a sandboxed copy when it refused it, read back by the
/// dialect: findings at the original files' lines, or what the sandbox cannot give (a module
/// this machine's server lacks), which is why it refused.
public struct SandboxRefusal: Sendable {
    public var findings: [Diagnostic] = []
    /// The word a finding's refusal names in its statement (nginx's `invalid parameter
    /// "resolve"`), by the finding's index: blanking that word alone reads past it, the
    /// statement (an upstream's only `server`) kept.
    public var words: [Int: String] = [:]
    /// Whether a refusal is one another edition of the server lifts (NGINX Plus's directives
    /// and parameters): the configuration is then also run with the refused words blanked, and
    /// judged as that edition would serve it, as `detour check` judges it.
    public var anotherEdition = false
    /// What to write at the start of a finding's line to read past it, by the finding's index,
    /// where blanking cannot (nginx's `no servers are inside upstream`: a server is added to
    /// the block, `upstreamMark` standing for the fake upstream's address).
    public var insertions: [Int: String] = [:]
    public static let upstreamMark = "{detour-upstream}"
    /// Statements this machine's server lacks the module for, that no probe asks anyway (an
    /// nginx `stream` block without ngx_stream_module): blanked and listed as not probed, not
    /// a finding.
    public var setAside: [(location: SourceLocation, reason: String)] = []
    /// What lets this machine's server read a block the configuration does not load the module
    /// for, when the module is installed here (nginx's dynamic `ngx_stream_module`, built in
    /// where the configuration comes from): `text` written at `location`, a rewrite, not a finding.
    public var loads: [(location: SourceLocation, text: String, reason: String)] = []
    public var missing: String?
    /// Why the server would not run a configuration it finds valid (HAProxy's "no listener"):
    /// nothing to probe, and nothing wrong.
    public var servesNothing: String?

    public init() {}
}
