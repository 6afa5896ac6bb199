import DetourSupport

/// One way an error page is written: its file extension, media type, template and byte budget.
/// The build renders every format the same way; a format with an envelope wraps another
/// format's rendering (HAProxy's `.http` is a whole HTTP response around the HTML).
public struct OutputFormat: Sendable, Hashable {
    public enum Envelope: Sendable, Hashable {
        case none
        /// A complete HTTP/1.x response whose body is `body`'s rendering.
        case httpResponse(body: String)
        /// `body`'s rendering as an HAProxy log-format text: `%` doubled, and the request's
        /// reference filled in by HAProxy.
        case logFormat(body: String)
    }

    public var name: String
    public var fileExtension: String
    /// The bare media type, as nginx's `types` block takes it.
    public var mediaType: String
    /// Text formats name their encoding; JSON is UTF-8 by definition (RFC 8259).
    public var charset: String?
    /// The template that renders it; nil for an envelope around another format.
    public var template: String?
    /// Largest file accepted, in bytes; the build fails naming any file over it.
    public var budget: Int?
    public var envelope: Envelope
    /// A regular expression on the `Accept` header that asks for this format (valid in PCRE and
    /// Go's RE2 alike, matched case-insensitively); nil for the default and for formats no client negotiates.
    public var acceptPattern: String?
    /// The statuses this format is written for; nil for every status.
    public var statuses: Set<Int>?

    /// Error pages are served while a backend is down: one self-contained file, tiny.
    public static let html = OutputFormat(
        name: "html", fileExtension: "html", mediaType: "text/html", charset: "utf-8", template: "error", budget: 8 * 1024, envelope: .none, acceptPattern: nil,
        statuses: nil)
    /// RFC 9457 problem details, for API clients.
    public static let json = OutputFormat(
        name: "json", fileExtension: "json", mediaType: "application/problem+json", charset: nil, template: "error.json", budget: 8 * 1024, envelope: .none,
        acceptPattern: #"application/(problem\+)?json"#, statuses: nil)
    /// For curl and terminals.
    public static let text = OutputFormat(
        name: "txt", fileExtension: "txt", mediaType: "text/plain", charset: "utf-8", template: "error.txt", budget: 8 * 1024, envelope: .none,
        acceptPattern: "text/plain", statuses: nil)
    /// HAProxy's `errorfile`: refused over tune.bufsize − tune.maxrewrite = 16384 − 1024 bytes by default.
    public static let haproxy = OutputFormat(
        name: "http", fileExtension: "http", mediaType: "text/html", charset: "utf-8", template: nil, budget: 15_360, envelope: .httpResponse(body: "html"),
        acceptPattern: nil, statuses: HAProxyFacts.errorfileStatuses)

    /// HAProxy's `http-request return … lf-file` and `http-response return … lf-file`, for the
    /// server errors it replaces: the HTML page with the request's unique ID on it.
    public static let haproxyPage = OutputFormat(
        name: "lf", fileExtension: "lf", mediaType: "text/html", charset: "utf-8", template: nil, budget: 15_360, envelope: .logFormat(body: "html"),
        acceptPattern: nil, statuses: Set(500...599))

    /// What the HTML page carries where the request's ID goes: directives nginx's SSI and
    /// Apache's mod_include (`UNIQUE_ID`) and Caddy's `templates` (`<!--{ }-->`) fill in. A
    /// server that fills in none leaves only comments, which the page's CSS hides with the label;
    /// `detour backend` puts the ID there itself.
    public static let requestReferenceMarkup = #"<!--#echo var="UNIQUE_ID" --><!--{placeholder "http.error.id" | html}-->"#

    /// The `Content-Type` header value.
    public var contentType: String { charset.map { "\(mediaType); charset=\($0)" } ?? mediaType }

    public static let all = [html, json, text, haproxy, haproxyPage]
    /// The formats a client chooses with `Accept`, the default first.
    public static let negotiated = [html, json, text]

    /// Whether a page for `status` is written in this format: HAProxy takes an errorfile only
    /// for the statuses it raises itself, so no other status gets a `.http` file.
    public func applies(to status: Int) -> Bool { statuses?.contains(status) ?? true }

    public static func named(_ name: String) -> OutputFormat? { all.first { $0.name == name } }
}
