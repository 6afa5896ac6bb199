import DetourDiagnostics
import DetourLayout

/// `content/codes/<status>.yml`: one HTTP status the site explains.
public struct ErrorCode: Sendable {
    public var status: Int
    public var title: String
    /// One sentence for visitors.
    public var summary: String
    /// Markdown for visitors: what they can do now.
    public var advice: Located<String>?
    /// Markdown for operators: where to look.
    public var operatorNotes: Located<String>?
    public var retryAfter: Int?
    /// Servers or CDNs that emit this status themselves (nginx, Caddy, Cloudflare …).
    public var emittedBy: [String]
    /// The status's earlier reason phrases (`Request Entity Too Large` for 413), which people
    /// still search for and servers still print.
    public var formerNames: [String] = []
    /// Slugs of related articles, each located for error reporting.
    public var related: [Located<String>]
    /// Whether `errors/<status>.html` is generated.
    public var generatesPage: Bool
    public var location: SourceLocation
    /// Path relative to the content folder (`codes/502.yml`), for relative `.md` links.
    public var relativePath: String
    public var statusLocation: SourceLocation
    /// Set by the loader: advice and notes parsed once, for pages and search.
    public var adviceDocument: MarkdownDocument?
    public var operatorNotesDocument: MarkdownDocument?

    /// Directory of the code's help page, relative to the site root.
    public var sitePath: String { SiteLayout.code(status) }
}
