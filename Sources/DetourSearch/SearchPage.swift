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
    /// The file that alone decides what of the page is indexed (an article's, or its
    /// translation's), nil where more does: two languages' pages from one source score alike
    /// when the languages tokenize alike (`SearchIndexSharing`).
    public var source: String?
    /// The summary and the text before the first section.
    public var text: String { body.text }
    public var sections: [Section] { body.sections }
    /// Both, held, or made again on each read when the page was made with a way to read them
    /// (`init(…, sectionCount:, body:)`): an index reads a page's text only while it scores
    /// the page and while it writes the page's excerpts.
    public var body: (text: String, sections: [Section]) { readBody?() ?? heldBody }
    /// How many sections there are, without reading them.
    public let sectionCount: Int
    private let heldBody: (text: String, sections: [Section])
    private let readBody: (@Sendable () -> (text: String, sections: [Section]))?

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
        heldBody = (text, sections)
        sectionCount = sections.count
        readBody = nil
    }

    /// A page whose text and `sectionCount` sections `body` reads when they are wanted.
    public init(
        url: String, title: String, codes: [Int], tags: [String] = [], logPatterns: [String] = [], sectionCount: Int,
        body: @escaping @Sendable () -> (text: String, sections: [Section])
    ) {
        self.url = url
        self.title = title
        self.codes = codes
        self.tags = tags
        self.logPatterns = logPatterns
        heldBody = ("", [])
        self.sectionCount = sectionCount
        readBody = body
    }
}
