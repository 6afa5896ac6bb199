import DetourTemplates

/// What every page says of itself: its title and language, and for a page with an address its
/// canonical URL, its alternates in the other languages and the language switcher.
struct PageHeader: TemplateValue {
    /// `<link rel="alternate" hreflang>`: one per language, and `x-default`.
    struct Alternate: TemplateValue {
        var language: String
        var url: String

        var templateData: TemplateData { TemplateFields(["language": language, "url": url]).templateData }
    }

    /// One entry of the language switcher, its URL relative to the page.
    struct LanguageChoice: TemplateValue {
        var language: String
        var name: String
        var url: String
        var current: Bool

        var templateData: TemplateData { TemplateFields(["language": language, "name": name, "url": url, "current": current]).templateData }
    }

    var title: String
    var language: String?
    var url: String?
    var alternates: [Alternate]?
    var languages: [LanguageChoice]?
    /// The fallback notice of a page shown in the default language.
    var notTranslated: String?

    var templateData: TemplateData {
        TemplateFields([
            "title": title, "language": language, "url": url, "alternates": alternates, "switchLanguages": languages.map { _ in true },
            "languages": languages, "notTranslated": notTranslated,
        ]).templateData
    }
}
