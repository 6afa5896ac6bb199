import DetourDiagnostics
import DetourSupport
import Foundation

/// Links to a heading (`x.md#part`, `/articles/x/#part`, `#part`) are checked once every
/// article's headings are known: a missing heading builds a page that scrolls nowhere.
struct HeadingLinkCheck {
    private let headingIDs: [String: [String]]
    private var links: [MarkdownRenderer.FragmentLink] = []
    /// The article each link is on, nil on a code page.
    private var sources: [String?] = []

    init(articles: [Article]) {
        self.init(headingIDs: Dictionary(articles.map { ($0.slug, $0.anchors) }, uniquingKeysWith: { first, _ in first }))
    }

    /// `headingIDs`: each article's heading ids, by slug.
    init(headingIDs: [String: [String]]) {
        self.headingIDs = headingIDs
    }

    /// `page`: the article the links are on, for `#part`; nil on a code page, whose anchors
    /// come from its template and are not known here.
    mutating func add(_ found: [MarkdownRenderer.FragmentLink], onArticle page: String?) {
        for var link in found {
            if link.slug == nil {
                guard let page else { continue }
                link.slug = page
            }
            links.append(link)
            sources.append(page)
        }
    }

    /// By slug, the heading ids that pages other than that article link to, as written (found
    /// or not): a rebuild that changes an article's headings knows whose findings change.
    func linkedFromElsewhere() -> [String: Set<String>] {
        var linked: [String: Set<String>] = [:]
        for (link, source) in zip(links, sources) {
            guard let slug = link.slug, slug != source else { continue }
            linked[slug, default: []].insert(link.fragment.removingPercentEncoding ?? link.fragment)
        }
        return linked
    }

    /// A link to a missing heading of another page is an error; one within its own page (`#part`)
    /// is a warning, an error under `--strict`, as text pasted from a repository often has one.
    func brokenLinks() -> [Diagnostic] {
        zip(links, sources).compactMap { link, source in
            guard let slug = link.slug, let ids = headingIDs[slug] else { return nil }
            let fragment = link.fragment.removingPercentEncoding ?? link.fragment
            guard !ids.contains(fragment), !Self.namesNoElement(fragment) else { return nil }
            var message = "link '\(link.destination)' points to heading '#\(fragment)', which article '\(slug)' does not have"
            if let suggestion = Suggestion.closest(to: fragment, among: ids) { message += "; did you mean '#\(suggestion)'?" }
            return slug == source
                ? .warning("markdown.broken-link", message, at: link.location) : .error("markdown.broken-link", message, at: link.location)
        }
    }

    /// `#top`, which browsers scroll to the top for without an element (HTML's "top" fragment),
    /// and `##`, a link that goes nowhere on purpose (to show its title as a tooltip).
    private static func namesNoElement(_ fragment: String) -> Bool {
        fragment.lowercased() == "top" || fragment == "#"
    }
}
