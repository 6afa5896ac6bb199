import DetourContent
import DetourLogs
import DetourTemplates

/// What an article's page shows besides its summary: the body, its headings, log lines, the
/// command that confirms the cause, and where it is filed (section, sidebar, previous and next).
struct ArticlePageView: TemplateValue {
    struct Heading: TemplateValue, Equatable {
        var level: Int
        var text: String
        var id: String

        var templateData: TemplateData { TemplateFields().with("level", level).with("text", text).with("id", id).templateData }
    }

    /// A command that confirms the cause on the operator's machine, and the server it is for.
    struct Confirmation: TemplateValue, Equatable {
        var server: String?
        var command: String

        var templateData: TemplateData { TemplateFields().with("server", server).with("command", command).templateData }
    }

    var summary: ArticleSummary
    var html: String
    /// The language the body is written in: the page's, or the default one's it falls back to.
    var language: String
    var headings: [Heading]
    var logPatterns: [String]
    var confirmations: [Confirmation] = []
    var section: String?
    var sectionArticles: [ArticleLink]?
    /// Set when the sidebar shows only part of a long section: where all of it is listed.
    var sectionURL: String?
    var sectionCount: Int?
    var previous: ArticleLink?
    var next: ArticleLink?
    var pager: Bool?
    var editURL: String?

    /// The headings its table of contents lists.
    static func headings(of article: Article) -> [Heading] {
        article.headings.filter { $0.level <= 3 }.map { Heading(level: $0.level, text: $0.text, id: $0.id) }
    }

    static func confirmations(of article: Article) -> [Confirmation] {
        article.confirmation.commands.map { Confirmation(server: $0.server.map(LogConfirmation.name), command: LogConfirmation.shown($0.text)) }
    }

    var templateData: TemplateData {
        TemplateFields().with("html", html).with("language", language).with("headings", headings).with("logPatterns", logPatterns)
            .with("confirmations", confirmations).with("section", section).with("sectionArticles", sectionArticles).with("sectionURL", sectionURL).with(
                "sectionCount", sectionCount
            )
            .with("previous", previous).with("next", next).with("pager", pager).with("editURL", editURL)
            .adding(summary.fields).templateData
    }
}
