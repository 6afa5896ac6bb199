import DetourContent
import DetourTemplates

/// What an article's page shows besides its summary: the body, its headings, log lines, and
/// where it is filed (section, sidebar, previous and next).
struct ArticlePageView: TemplateValue {
    struct Heading: TemplateValue {
        var level: Int
        var text: String
        var id: String

        var templateData: TemplateData { TemplateFields(["level": level, "text": text, "id": id]).templateData }
    }

    var summary: ArticleSummary
    var html: String
    /// The language the body is written in: the page's, or the default one's it falls back to.
    var language: String
    var headings: [Heading]
    var logPatterns: [String]
    var section: String?
    var sectionArticles: [ArticleLink]?
    /// Set when the sidebar shows only part of a long section: where all of it is listed.
    var sectionURL: String?
    var sectionCount: Int?
    var previous: ArticleLink?
    var next: ArticleLink?
    var pager: Bool?
    var editURL: String?

    var templateData: TemplateData {
        TemplateFields([
            "html": html, "language": language, "headings": headings, "logPatterns": logPatterns, "section": section,
            "sectionArticles": sectionArticles, "sectionURL": sectionURL, "sectionCount": sectionCount, "previous": previous, "next": next,
            "pager": pager, "editURL": editURL,
        ]).adding(summary.fields).templateData
    }
}
