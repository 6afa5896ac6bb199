import DetourContent
import DetourLayout
import DetourSupport

/// Markdown as pages show it, rendered from the trees the content layer parsed, each time with
/// the page's own root and in the alert titles of the text's language. Each article's text (and
/// each translation) is rendered once, on first use, and shared by every language that shows
/// it; its tree is let go then.
struct MarkdownBodies: Sendable {
    private let renderers: [String: MarkdownRenderer]
    private let defaultLanguage: String
    /// By article: its text as written, and its translations by language, under the article
    /// pages' root.
    private let articles: [(original: LazyText, translations: [String: LazyText])]

    init(content: Content) {
        let renderers = Self.renderers(of: content)
        let fallback = renderers[content.site.language]!
        let speaking = { (language: String) in renderers[language] ?? fallback }
        self.renderers = renderers
        defaultLanguage = content.site.language
        articles = content.articles.map { article in
            let original = LazyText { [renderer = speaking(content.site.language), document = article.document, path = article.relativePath] in
                renderer.html(document, fromPath: path, root: SiteLayout.nestedRoot)
            }
            let translations = Dictionary(
                uniqueKeysWithValues: article.translations.map { language, translation in
                    (
                        language,
                        LazyText { [renderer = speaking(language), document = translation.document, path = translation.relativePath] in
                            renderer.html(document, fromPath: path, root: SiteLayout.nestedRoot)
                        }
                    )
                })
            return (original, translations)
        }
    }

    /// One renderer per language of the site, speaking its UI strings (`alert_note`, …).
    private static func renderers(of content: Content) -> [String: MarkdownRenderer] {
        let renderer = MarkdownRenderer(
            resolver: LinkResolver(articles: content.articles, statuses: Set(content.codes.map(\.status))),
            allowRawHTML: content.site.allowRawHTML
        )
        return Dictionary(uniqueKeysWithValues: content.site.languages.map { ($0, renderer.speaking(content.strings(in: $0))) })
    }

    /// Renders every article's text (and translation) now, on every core, so each tree is let
    /// go before the pages and the index need memory of their own.
    func renderAll() {
        _ = articles.concurrentMap { article in
            _ = article.original.text
            for translation in article.translations.values { _ = translation.text }
        }
    }

    /// The article's page body in `language`: its translation, else the text as written.
    func article(at index: Int, language: String) -> String {
        (articles[index].translations[language] ?? articles[index].original).text
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
