import DetourTemplates

/// A code's help page: its texts, advice and operators' notes as HTML, who sends it, its error
/// page and the articles about it.
struct CodePageView: TemplateValue {
    var summary: CodeSummary
    var advice: String?
    var operatorNotes: String?
    /// The notes are written in the default language only.
    var notesLanguage: String
    var retryAfter: Int?
    var emittedBy: [String]
    var formerNames: [String]
    var errorPageURL: String?
    var related: GeneratedValues<ArticleSummary>

    var templateData: TemplateData {
        TemplateFields().with("advice", advice).with("operatorNotes", operatorNotes).with("notesLanguage", notesLanguage).with("retryAfter", retryAfter)
            .with("emittedBy", emittedBy).with("formerNames", formerNames).with("errorPageURL", errorPageURL).with("related", related)
            .adding(summary.fields).templateData
    }
}
