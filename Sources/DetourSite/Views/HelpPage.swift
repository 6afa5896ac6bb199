import DetourTemplates

/// A page of the help site: what every page sees (the site, the page's header, the UI strings
/// in its language, the cached partials) and the fields of its own kind.
struct HelpPage: TemplateValue {
    var site: SiteView
    var header: PageHeader
    var t: TemplateData
    var cached: TemplateTree?
    var fields: TemplateFields

    var templateData: TemplateData {
        TemplateFields().with("site", site).with("page", header).with("t", t).with("cached", cached).adding(fields).templateData
    }
}
