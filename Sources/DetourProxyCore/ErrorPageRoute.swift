import DetourDiagnostics

/// One way a site sends an error page (an nginx `error_page`, a Caddy `handle_errors` route):
/// the codes it answers, the files it sends, where the page's own request goes and the
/// status the page goes out with. The dialect fills it in its server's terms; the shared
/// checks (`ErrorPageChecks`) read only these fields, and `origin` is the dialect's own
/// record, for the words of its findings.
public struct ErrorPageRoute<Origin: Sendable>: Sendable {
    public var origin: Origin
    /// The codes it answers.
    public var codes: [Int]
    /// The files it sends from disk, each with the codes it is sent for.
    public var files: [(codes: [Int], file: PageFile)]
    /// Where the page's own request is handed to the upstream (the one that fails), if it is.
    public var upstream: SourceLocation?
    /// The success statuses the page goes out with instead of the error's, and where each is
    /// decided.
    public var successStatuses: [SuccessStatus]
    /// What stands between visitors and the page.
    public var guards: [PageGuard]
    /// A sign-in page for the statuses authentication raises: it answers on purpose with what
    /// the sign-in flow sends, so the status and upstream checks leave it alone.
    public var isSignIn: Bool

    public init(
        origin: Origin, codes: [Int], files: [(codes: [Int], file: PageFile)] = [], upstream: SourceLocation? = nil, successStatuses: [SuccessStatus] = [],
        guards: [PageGuard] = [], isSignIn: Bool = false
    ) {
        self.origin = origin
        self.codes = codes
        self.files = files
        self.upstream = upstream
        self.successStatuses = successStatuses
        self.guards = guards
        self.isSignIn = isSignIn
    }

    /// A password, a refusal or a condition before the page, where it is written.
    public struct PageGuard: Sendable {
        public var at: SourceLocation
        /// Whether it only selects which requests this route answers (a request matcher):
        /// another route without one may answer the rest, and then no visitor is left out.
        public var selectsRequests: Bool

        public init(at: SourceLocation, selectsRequests: Bool = false) {
            self.at = at
            self.selectsRequests = selectsRequests
        }
    }

    /// A status below 400 that an error page is sent with, and the construct that decides it
    /// as the configuration writes it (`=200`, `file_server`, `respond`).
    public struct SuccessStatus: Sendable {
        public var status: Int
        public var construct: String
        public var at: SourceLocation

        public init(status: Int, construct: String, at: SourceLocation) {
            self.status = status
            self.construct = construct
            self.at = at
        }
    }
}
