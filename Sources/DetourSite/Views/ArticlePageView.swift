import DetourContent
import DetourTemplates

/// What an article's page shows besides its summary: the body, its headings, log lines, and
/// where it is filed (section, sidebar, previous and next).
struct ArticlePageView: TemplateValue {
    struct Heading: TemplateValue {
        var level: Int
        var text: String
        var id: String

        var templateData: TemplateData { TemplateFields().with("level", level).with("text", text).with("id", id).templateData }
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
        TemplateFields().with("html", html).with("language", language).with("headings", headings).with("logPatterns", logPatterns)
            .with("section", section).with("sectionArticles", sectionArticles).with("sectionURL", sectionURL).with("sectionCount", sectionCount)
            .with("previous", previous).with("next", next).with("pager", pager).with("editURL", editURL)
            .adding(summary.fields).templateData
    }
}
