import DetourDiagnostics
import Foundation

/// `detour serve`'s quick path: articles whose files changed are read and rendered again on
/// their own, when nothing another page shows of them changed (title, summary, codes, tags,
/// headings, log patterns…). Anything more and the whole content folder is loaded again.
public enum ArticleReload: Sendable {
    /// The content with the articles replaced, and what reading them found.
    case updated(Content, changed: [Int], diagnostics: [Diagnostic])
    /// An article has an error: the previous content stands.
    case failed([Diagnostic])
    /// The change reaches other pages or files: load everything.
    case needsFullLoad
}

extension ContentLoader {
    /// `relativePaths`: content-relative paths of changed files (`articles/php/fpm.md`).
    public func reload(_ relativePaths: Set<String>, in content: Content) -> ArticleReload {
        var content = content
        let indices = Dictionary(content.articles.enumerated().map { ($0.element.relativePath, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var changed: [Int] = []
        var diagnostics: [Diagnostic] = []
        let renderer = MarkdownRenderer(
            resolver: LinkResolver(articles: content.articles, statuses: Set(content.codes.map(\.status))),
            allowRawHTML: content.site.allowRawHTML
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
            let previous = content.articles[index]
            guard article.showsElsewhere(as: previous) else { return .needsFullLoad }
            let start = SourceLocation(path: article.source.path, line: article.bodyStartLine)
            let output = renderer.render(article.body, fromPath: relative, start: start, root: SiteLayout.nestedRoot)
            guard output.headings.map(\.id) == previous.headings.map(\.id) else { return .needsFullLoad }
            (article.html, article.headings, article.sections, article.body) = (output.html, output.headings, output.sections, "")
            headingLinks.add(output.fragmentLinks, onArticle: article.slug)
            diagnostics += found + output.diagnostics
            content.articles[index] = article
            changed.append(index)
        }
        diagnostics += headingLinks.brokenLinks()
        return diagnostics.hasErrors ? .failed(diagnostics) : .updated(content, changed: changed, diagnostics: diagnostics)
    }
}

extension Article {
    /// Whether every page but the article's own shows it the same way.
    func showsElsewhere(as other: Article) -> Bool {
        slug == other.slug && title == other.title && summary == other.summary && codes.map(\.value) == other.codes.map(\.value)
            && tags == other.tags && audience == other.audience && updated == other.updated && draft == other.draft
            && logPatterns.map(\.value) == other.logPatterns.map(\.value)
    }
}
