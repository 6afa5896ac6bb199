import DetourContent
import DetourLayout

/// Markdown as pages show it, rendered from the trees the content layer parsed, each time with
/// the page's own root and in the alert titles of the text's language. An article's own text is
/// rendered once and shared by every language that falls back to it.
struct MarkdownBodies: Sendable {
    private let renderers: [String: MarkdownRenderer]
    private let defaultLanguage: String
    /// Each article as written, under the article pages' root, rendered on first use.
    private let originals: [LazyText]

    init(content: Content) {
        let renderers = Self.renderers(of: content)
        let renderer = renderers[content.site.language]!
        self.renderers = renderers
        defaultLanguage = content.site.language
        originals = content.articles.map { article in
            LazyText { renderer.html(article.document, fromPath: article.relativePath, root: SiteLayout.nestedRoot) }
        }
    }

    /// One renderer per language of the site, speaking its UI strings (`alert_note`, …).
    static func renderers(of content: Content) -> [String: MarkdownRenderer] {
        let renderer = MarkdownRenderer(
            resolver: LinkResolver(articles: content.articles, statuses: Set(content.codes.map(\.status))),
            allowRawHTML: content.site.allowRawHTML
        )
        var renderers = Dictionary(uniqueKeysWithValues: content.site.languages.map { ($0, renderer.speaking(content.strings(in: $0))) })
        renderers[content.site.language] = renderer.speaking(content.strings(in: content.site.language))
        return renderers
    }

    /// The article's page body in `language`: its translation, else the text as written.
    func article(_ original: Article, at index: Int, language: String) -> String {
        guard let translation = original.translations[language] else { return originals[index].renderText }
        return html(translation.document, fromPath: translation.relativePath, language: language, root: SiteLayout.nestedRoot)
    }

    /// Markdown written in `language` (a code's advice or notes) as a page under `root` shows it.
    func html(_ document: MarkdownDocument, fromPath: String, language: String, root: String) -> String {
        (renderers[language] ?? renderers[defaultLanguage]!).html(document, fromPath: fromPath, root: root)
    }
}
