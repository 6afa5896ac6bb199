import DetourTemplates

/// What every page says of itself: its title and language, and for a page with an address its
/// canonical URL, its alternates in the other languages and the language switcher.
struct PageHeader: TemplateValue {
    /// `<link rel="alternate" hreflang>`: one per language, and `x-default`.
    struct Alternate: TemplateValue {
        var language: String
        var url: String

        var templateData: TemplateData { TemplateFields().with("language", language).with("url", url).templateData }
    }

    /// One entry of the language switcher, its URL relative to the page.
    struct LanguageChoice: TemplateValue {
        var language: String
        var name: String
        var url: String
        var current: Bool

        var templateData: TemplateData {
            TemplateFields().with("language", language).with("name", name).with("url", url).with("current", current).templateData
        }
    }

    var title: String
    var language: String?
    var url: String?
    var alternates: [Alternate]?
    var languages: [LanguageChoice]?
    /// The fallback notice of a page shown in the default language.
    var notTranslated: String?

    var templateData: TemplateData {
        TemplateFields().with("title", title).with("language", language).with("url", url).with("alternates", alternates)
            .with("switchLanguages", languages.map { _ in true }).with("languages", languages).with("notTranslated", notTranslated).templateData
    }
}
