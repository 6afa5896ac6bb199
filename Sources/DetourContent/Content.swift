/// Everything loaded from `content/`, checked and with Markdown rendered.
public struct Content: Sendable {
    public var site: SiteConfig
    /// Sorted by status.
    public var codes: [ErrorCode]
    /// Sorted by title, drafts excluded.
    public var articles: [Article]

    public init(site: SiteConfig, codes: [ErrorCode], articles: [Article]) {
        self.site = site
        self.codes = codes
        self.articles = articles
    }

    public func code(_ status: Int) -> ErrorCode? { codes.first { $0.status == status } }
}
