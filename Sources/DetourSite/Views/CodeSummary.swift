import DetourTemplates

/// A code as lists show it, and the start of its help page.
struct CodeSummary: TemplateValue {
    var status: Int
    var title: String
    var summary: String
    var url: String

    var fields: TemplateFields { TemplateFields().with("status", status).with("title", title).with("summary", summary).with("url", url) }

    var templateData: TemplateData { fields.templateData }
}
