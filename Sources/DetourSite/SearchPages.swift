import DetourContent
import DetourSearch

/// The help site's pages as search indexes them. The default language's index holds every
/// code page and article, each section a result of its own; another language's holds the
/// code pages as translated (the help site's articles are written in the default language).
enum SearchPages {
    /// The ids `templates/code.mustache` gives its two sections; a test checks that every
    /// anchor in the index exists on its page.
    static let adviceAnchor = ("what-you-can-do", "What you can do")
    static let operatorNotesAnchor = ("for-site-operators", "For site operators")

    static func pages(of content: Content, language: String) -> [SearchPage] {
        guard language == content.site.language else {
            let translated = content.translations[language]?.codes ?? [:]
            return content.codes.filter { translated[$0.status] != nil }.map { code in
                let text = content.text(of: code, in: language)
                let advice = text.advice.map { MarkdownDocument($0.value).render().sections.map(\.text).joined(separator: " ") }
                return SearchPage(
                    url: code.sitePath, title: "\(code.status) \(text.title)", codes: [code.status], definesStatus: code.status,
                    text: [text.summary, advice].compactMap { $0 }.joined(separator: " "))
            }
        }
        let codes = content.codes.map { code in
            var notes = code.operatorNotesSections
            if !code.emittedBy.isEmpty { notes.append(MarkdownDocument.Section(heading: nil, text: "Sent by: " + code.emittedBy.joined(separator: ", "))) }
            return SearchPage(
                url: code.sitePath, title: "\(code.status) \(code.title)", codes: [code.status], definesStatus: code.status, tags: code.emittedBy,
                text: code.summary, sections: sections(code.adviceSections, under: adviceAnchor) + sections(notes, under: operatorNotesAnchor)
            )
        }
        let articles = content.articles.map { article in
            let intro = article.sections.first { $0.heading == nil }?.text
            return SearchPage(
                url: article.sitePath, title: article.title, codes: article.codes.map(\.value), tags: article.tags,
                logPatterns: article.logPatterns.map(\.value),
                text: [article.summary, intro].compactMap { $0 }.joined(separator: " "),
                sections: article.sections.compactMap { section in section.heading.map { SearchPage.Section(anchor: $0.id, title: $0.text, text: section.text) }
                }
            )
        }
        return codes + articles
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
