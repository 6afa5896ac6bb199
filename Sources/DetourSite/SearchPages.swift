import DetourContent
import DetourLayout
import DetourSearch

/// The help site's pages as search indexes them: each language's index holds every code page
/// and article of that language's folder, translated where they are and as written where not,
/// each section a result of its own.
enum SearchPages {
    /// The ids `templates/code.mustache` gives its two sections; a test checks that every
    /// anchor in the index exists on its page.
    static let adviceAnchor = ("what-you-can-do", "What you can do")
    static let operatorNotesAnchor = ("for-site-operators", "For site operators")

    static func pages(of content: Content, language: String) -> [SearchPage] {
        let folder = SiteLayout.languageFolder(language, defaultLanguage: content.site.language)
        let strings = content.strings(in: language)
        let adviceSection = (adviceAnchor.0, strings["advice_heading"] ?? adviceAnchor.1)
        let notesSection = (operatorNotesAnchor.0, strings["for_operators"] ?? operatorNotesAnchor.1)
        let codes = content.codes.map { code in
            let text = content.text(of: code, in: language)
            var notes = code.operatorNotesDocument?.sections ?? []
            if !code.emittedBy.isEmpty { notes.append(MarkdownDocument.Section(heading: nil, text: "Sent by: " + code.emittedBy.joined(separator: ", "))) }
            let advice = text.adviceDocument?.sections ?? []
            var page = SearchPage(
                url: folder + code.sitePath, title: "\(code.status) \(text.title)", codes: [code.status], definesStatus: code.status, tags: code.emittedBy,
                text: text.summary, sections: sections(advice, under: adviceSection) + sections(notes, under: notesSection)
            )
            page.aliases = code.formerNames
            return page
        }
        // Every article in every language: translated where it is, else as written.
        // Their text is read when the index scores the page and writes its excerpts, from
        // where a build may have spilled it (`ContentLoader.spillsSections`).
        let articles = content.articles.map { page(of: $0.translated(language), in: folder) }
        return codes + articles
    }

    /// By language, the sources of its pages (`SearchPage.source`), without making them.
    static func sources(of content: Content) -> [String: [String]] {
        Dictionary(
            uniqueKeysWithValues: content.site.languages.map { language in
                (language, content.articles.map { $0.translations[language]?.relativePath ?? $0.relativePath })
            })
    }

    /// An article (or its translation) as the index of the language folder `folder` holds it.
    static func page(of article: Article, in folder: String) -> SearchPage {
        let (summary, source) = (article.summary, article.searchSections)
        var page = SearchPage(
            url: folder + article.sitePath, title: article.title, codes: article.codes.map(\.value), tags: article.tags,
            logPatterns: article.logPatterns.map(\.value), sectionCount: source.headedCount
        ) {
            let sections = source.sections
            let intro = sections.first { $0.heading == nil }?.text
            return (
                [summary, intro].compactMap { $0 }.joined(separator: " "),
                sections.compactMap { section in section.heading.map { SearchPage.Section(anchor: $0.id, title: $0.text, text: section.text) } }
            )
        }
        page.source = article.relativePath
        page.aliases = article.aliases
        return page
    }

    /// A template section's text (the Markdown before its first heading, merged) and the
    /// Markdown's own headed sections.
    private static func sections(_ markdown: [MarkdownDocument.Section], under anchor: (id: String, title: String)) -> [SearchPage.Section] {
        let loose = markdown.filter { $0.heading == nil }.map(\.text).joined(separator: " ")
        var found = loose.isEmpty ? [] : [SearchPage.Section(anchor: anchor.id, title: anchor.title, text: loose)]
        for section in markdown {
            if let heading = section.heading { found.append(SearchPage.Section(anchor: heading.id, title: heading.text, text: section.text)) }
        }
        return found
    }
}
