import DetourDiagnostics
import DetourYAML
import Foundation

/// One article file read as a whole content load reads it, without the rest of the content:
/// the links it makes are resolved and checked against the site as a build recorded it
/// (`ArticleAlone.Site`). A rebuild after one article's text changed reads its old and new text
/// so, and rewrites only what differs.
public enum ArticleAlone {
    /// What checking one article's links needs of the rest of the content.
    public struct Site: Sendable, Equatable {
        /// Each article's content-relative `.md` path and its slug.
        public var articlesByPath: [String: String]
        /// Statuses with a definition.
        public var statuses: [Int]
        /// Each article's heading ids, by slug.
        public var headingIDs: [String: [String]]
        public var markdown: MarkdownOptions
        public var includeDrafts: Bool

        public init(content: Content, includeDrafts: Bool) {
            self.init(
                articlesByPath: Dictionary(content.articles.map { ($0.relativePath, $0.slug) }, uniquingKeysWith: { first, _ in first }),
                statuses: content.codes.map(\.status).sorted(),
                headingIDs: Dictionary(content.articles.map { ($0.slug, $0.anchors) }, uniquingKeysWith: { first, _ in first }),
                markdown: content.site.markdown, includeDrafts: includeDrafts)
        }

        public init(articlesByPath: [String: String], statuses: [Int], headingIDs: [String: [String]], markdown: MarkdownOptions, includeDrafts: Bool) {
            (self.articlesByPath, self.statuses, self.headingIDs) = (articlesByPath, statuses, headingIDs)
            (self.markdown, self.includeDrafts) = (markdown, includeDrafts)
        }

        /// The reader a content load parses articles with.
        public var reader: MarkdownRenderer {
            MarkdownRenderer(resolver: LinkResolver(articlesByPath: articlesByPath, statuses: Set(statuses)), markdown: markdown)
        }
    }

    /// The article in `text`, its body parsed with its tree kept, and what reading it found as
    /// a content load would (links into headings checked for an article, not a translation; its
    /// own headings as they now are); nil with the findings when it does not read as an
    /// article. `linkedHeadings`: by slug, the heading ids it links to in other articles.
    public static func read(_ text: String, relativePath: String, displayRoot: String, site: Site) -> (
        article: Article?, diagnostics: [Diagnostic], linkedHeadings: [String: Set<String>]
    ) {
        let file = SourceFile(displayPath: displayRoot + "/" + relativePath, url: URL(fileURLWithPath: relativePath), text: text)
        var diagnostics: [Diagnostic] = []
        guard var article = ArticleReader.read(file, relativePath: relativePath, diagnostics: &diagnostics) else { return (nil, diagnostics, [:]) }
        if site.includeDrafts { article.draft = false }
        let output = article.readBody(with: site.reader)
        diagnostics += output.diagnostics
        guard let slug = site.articlesByPath[relativePath] else { return (article, diagnostics, [:]) }
        var headingIDs = site.headingIDs
        let own = output.anchors
        if headingIDs[slug] != own { headingIDs[slug] = own }
        var headingLinks = HeadingLinkCheck(headingIDs: headingIDs)
        headingLinks.add(output.fragmentLinks, onArticle: slug)
        diagnostics += headingLinks.brokenLinks()
        return (article, diagnostics, headingLinks.linkedFromElsewhere())
    }

    /// Whether `new` is `old` with only its body changed (its text, headings and sections): the
    /// same front matter, so every page but its own, and every list, shows it as before.
    public static func onlyBodyChanged(_ old: Article, _ new: Article, oldText: String, newText: String) -> Bool {
        guard case .success(let before) = FrontMatter.split(SourceFile(displayPath: "", url: URL(fileURLWithPath: "/"), text: oldText)),
            case .success(let after) = FrontMatter.split(SourceFile(displayPath: "", url: URL(fileURLWithPath: "/"), text: newText))
        else { return false }
        return before.yaml == after.yaml && before.bodyStartLine == after.bodyStartLine && new.isListed(as: old) && new.slug == old.slug
            && new.draft == old.draft && new.logPatterns.map(\.value) == old.logPatterns.map(\.value)
            && new.confirmation == old.confirmation
    }
}
