import DetourTemplates

/// An article as lists show it (home, sections, tags, a code's related articles), and the
/// card the theme renders from that.
struct ArticleSummary: TemplateValue {
    /// A status an article is about, with the code's title where a page shows it.
    struct CodeLink: TemplateValue {
        var status: Int
        var url: String
        var title: String?

        var templateData: TemplateData { TemplateFields().with("status", status).with("url", url).with("title", title).templateData }
    }

    var title: String
    var summary: String
    var url: String
    var audience: String
    var codes: [CodeLink]
    var tags: [TagLink]
    var updated: String?
    /// The article's `partials/article-card`, rendered where a template shows it.
    var card: TextOnUse?
    var t: TemplateData

    var fields: TemplateFields {
        TemplateFields().with("title", title).with("summary", summary).with("url", url).with("audience", audience).with("codes", codes)
            .with("tags", tags).with("updated", updated).with("card", card).with("t", t)
    }

    var templateData: TemplateData { fields.templateData }
}

/// A tag as a link, with how many articles carry it where a list counts them.
struct TagLink: TemplateValue {
    var name: String
    var url: String
    var count: Int?

    var templateData: TemplateData { TemplateFields().with("name", name).with("url", url).with("count", count).templateData }
}

/// A link to another article: the sidebar's (marking the current one), previous and next.
/// Made as template data at once: a sidebar repeats the same links on many pages.
struct ArticleLink: TemplateValue {
    let templateData: TemplateData

    init(title: String, url: String, current: Bool? = nil) {
        templateData = TemplateFields().with("title", title).with("url", url).with("current", current).templateData
    }
}
