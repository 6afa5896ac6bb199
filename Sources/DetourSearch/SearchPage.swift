/// One help page as search sees it: its fields, each weighted (title > codes > headings >
/// log lines > tags > text), and its sections, each a result of its own that links to its heading.
public struct SearchPage: Sendable {
    public struct Section: Sendable {
        /// The heading's id, the fragment a result links to.
        public var anchor: String
        public var title: String
        public var text: String

        public init(anchor: String, title: String, text: String) {
            self.anchor = anchor
            self.title = title
            self.text = text
        }
    }

    /// Relative to the site root, as `codes/502/`.
    public var url: String
    public var title: String
    /// Other names the page's subject goes by, weighed as its title (a status's former reason phrases).
    public var aliases: [String] = []
    /// Statuses the page is about; shown as badges, and an exact one puts its code page first.
    public var codes: [Int]
    /// Set on the page that defines a status (`codes/502/`).
    public var definesStatus: Int?
    public var tags: [String]
    public var logPatterns: [String]
    /// The summary and the text before the first section.
    public var text: String
    public var sections: [Section]

    public init(
        url: String, title: String, codes: [Int], definesStatus: Int? = nil, tags: [String] = [], logPatterns: [String] = [], text: String,
        sections: [Section] = []
    ) {
        self.url = url
        self.title = title
        self.codes = codes
        self.definesStatus = definesStatus
        self.tags = tags
        self.logPatterns = logPatterns
        self.text = text
        self.sections = sections
    }
}
