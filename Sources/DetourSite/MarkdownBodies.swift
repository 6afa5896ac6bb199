import DetourContent
import DetourDiagnostics
import DetourLayout
import DetourSupport
import Foundation

/// Markdown as pages show it, rendered from the trees the content layer parsed (or, for an
/// article loaded without one, from its file read again), each time with the page's own root
/// and in the alert titles of the text's language. Each article's text (and each translation)
/// is rendered once, on first use, and shared by every language that shows it.
struct MarkdownBodies: Sendable {
    private let renderers: [String: MarkdownRenderer]
    private let defaultLanguage: String
    /// By article: its text as written, and its translations by language, under the article
    /// pages' root.
    private let articles: [ArticleBody]
    /// Articles whose file changed between the content's check and their page's reading.
    private let changed: ChangedFiles

    /// `contentRoot`: where articles loaded without their trees are read again.
    /// `pagesPerArticle`: how many pages will show each article, once each, after which its
    /// text is let go; nil to keep every text (a preview server renders pages again).
    init(content: Content, contentRoot: URL, pagesPerArticle: Int? = nil) {
        let renderers = Self.renderers(of: content)
        let fallback = renderers[content.site.language]!
        let speaking = { (language: String) in renderers[language] ?? fallback }
        self.renderers = renderers
        defaultLanguage = content.site.language
        let changed = ChangedFiles()
        self.changed = changed
        articles = content.articles.map { article in
            let original = Self.body(of: article, renderer: speaking(content.site.language), contentRoot: contentRoot, changed: changed)
            let translations = Dictionary(
                uniqueKeysWithValues: article.translations.map { language, translation in
                    (language, Self.body(of: translation, renderer: speaking(language), contentRoot: contentRoot, changed: changed))
                })
            return ArticleBody(original: original, translations: translations, pagesLeft: pagesPerArticle)
        }
    }

    /// The article's page body, from its tree, or from its file read again when the content
    /// kept none; a file that changed since is reported (`changedFiles`) and shows nothing.
    private static func body(of article: Article, renderer: MarkdownRenderer, contentRoot: URL, changed: ChangedFiles) -> LazyText {
        guard article.bodyHash != nil else {
            return LazyText { [document = article.document, path = article.relativePath] in
                renderer.html(document, fromPath: path, root: SiteLayout.nestedRoot)
            }
        }
        return LazyText {
            guard let document = article.rereadDocument(contentRoot: contentRoot, markdown: renderer.markdown) else {
                changed.add(article.source.path)
                return ""
            }
            return renderer.html(document, fromPath: article.relativePath, root: SiteLayout.nestedRoot)
        }
    }

    /// What reading articles again found: files that changed during the build.
    var changedFiles: [Diagnostic] { changed.diagnostics }

    /// One renderer per language of the site, speaking its UI strings (`alert_note`, …).
    private static func renderers(of content: Content) -> [String: MarkdownRenderer] {
        let renderer = MarkdownRenderer(
            resolver: LinkResolver(articles: content.articles, statuses: Set(content.codes.map(\.status))),
            markdown: content.site.markdown
        )
        return Dictionary(uniqueKeysWithValues: content.site.languages.map { ($0, renderer.speaking(content.strings(in: $0))) })
    }

    /// The article's page body in `language`: its translation, else the text as written.
    func article(at index: Int, language: String) -> String {
        articles[index].text(in: language)
    }

    /// Markdown written in `language` (a code's advice or notes) as a page under `root` shows it.
    func html(_ document: MarkdownDocument, fromPath: String, language: String, root: String) -> String {
        renderer(language).html(document, fromPath: fromPath, root: root)
    }

    /// The same as plain text, for an error page's text and JSON forms.
    func plainText(_ document: MarkdownDocument, fromPath: String, language: String, root: String) -> String {
        renderer(language).plainText(document, fromPath: fromPath, root: root)
    }

    private func renderer(_ language: String) -> MarkdownRenderer { renderers[language] ?? renderers[defaultLanguage]! }
}
