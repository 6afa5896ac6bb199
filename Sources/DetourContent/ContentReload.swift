import DetourDiagnostics
import DetourYAML
import Foundation

/// The content side of an incremental build (`IncrementalBuild`, which `detour serve` runs on
/// every save): articles whose files changed are read and rendered again on their own, the
/// rest of the content kept as it was loaded. An article that changed its slug,
/// its draft state, its log patterns, its headings or names a code that has no definition
/// reaches further: then the whole content folder is loaded again.
public enum ContentReload: Sendable {
    /// The content with the articles replaced (and sorted again), the changed files' paths,
    /// whether what lists show of an article changed (title, summary, codes, tags, audience,
    /// date), and what reading them found.
    case updated(Content, changed: [String], relisted: Bool, diagnostics: [Diagnostic])
    /// An article has an error: the previous content stands.
    case failed([Diagnostic])
    /// The change reaches other pages or files: load everything.
    case needsFullLoad
}

extension ContentLoader {
    /// `relativePaths`: content-relative paths of changed files (`articles/php/fpm.md`).
    public func reload(_ relativePaths: Set<String>, in content: Content) -> ContentReload {
        var content = content
        let indices = Dictionary(content.articles.enumerated().map { ($0.element.relativePath, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let statuses = Set(content.codes.map(\.status))
        var relisted = false
        var diagnostics: [Diagnostic] = []
        let renderer = MarkdownRenderer(
            resolver: LinkResolver(articles: content.articles, statuses: Set(content.codes.map(\.status))),
            markdown: content.site.markdown
        )
        var headingLinks = HeadingLinkCheck(articles: content.articles)
        for relative in relativePaths.sorted() {
            guard relative.hasPrefix("articles/"), relative.hasSuffix(".md"), let index = indices[relative] else { return .needsFullLoad }
            let url = URL(fileURLWithPath: root.path + "/" + relative, isDirectory: false)
            let file: SourceFile
            switch SourceFile.read(url, displayPath: displayRoot + "/" + relative) {
            case .success(let read): file = read
            case .failure: return .needsFullLoad
            }
            var found: [Diagnostic] = []
            guard var article = ArticleReader.read(file, relativePath: relative, diagnostics: &found), !found.hasErrors else {
                return found.hasErrors ? .failed(found) : .needsFullLoad
            }
            if includeDrafts { article.draft = false }
            let previous = content.articles[index]
            article.translations = previous.translations
            guard article.slug == previous.slug, article.draft == previous.draft,
                article.logPatterns.map(\.value) == previous.logPatterns.map(\.value), article.confirmation == previous.confirmation,
                article.codes.allSatisfy({ statuses.contains($0.value) })
            else { return .needsFullLoad }
            if !article.isListed(as: previous) { relisted = true }
            let output = article.readBody(with: renderer)
            guard output.anchors == previous.anchors else { return .needsFullLoad }
            headingLinks.add(output.fragmentLinks, onArticle: article.slug)
            diagnostics += found + output.diagnostics
            content.articles[index] = article
        }
        diagnostics += headingLinks.brokenLinks()
        guard !diagnostics.hasErrors else { return .failed(diagnostics) }
        if relisted { content.articles.sortInListOrder() }
        return .updated(content, changed: relativePaths.sorted(), relisted: relisted, diagnostics: diagnostics)
    }
}

extension Article {
    /// Whether the lists that show the article (home, codes, tags, search) show it the same way.
    func isListed(as other: Article) -> Bool {
        title == other.title && summary == other.summary && codes.map(\.value) == other.codes.map(\.value)
            && tags == other.tags && audience == other.audience && updated == other.updated
    }
}
