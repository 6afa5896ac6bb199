import DetourTemplates

/// One error page: a code's texts and advice in one language, the UI strings with the page's
/// values filled in, and the raw markup the request's ID goes into.
struct ErrorPageView: TemplateValue {
    struct Code: TemplateValue {
        var summary: CodeSummary
        /// The help page in the page's language; `summary.url` names the problem in every one.
        var helpURL: String
        var advice: String?
        var adviceText: String?
        var retryAfter: Int?

        var templateData: TemplateData {
            TemplateFields().with("helpURL", helpURL).with("advice", advice).with("adviceText", adviceText).with("retryAfter", retryAfter)
                .adding(summary.fields).templateData
        }
    }

    var site: SiteView
    var code: Code
    var t: [String: String]
    var title: String
    var requestReference: String

    var templateData: TemplateData {
        TemplateFields().with("site", site).with("code", code).with("t", t).with("page", PageHeader(title: title))
            .with("requestReference", requestReference).templateData
    }
}
