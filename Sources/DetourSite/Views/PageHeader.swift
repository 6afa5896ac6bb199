/// What every page says of itself: its title and language, and for a page with an address its
/// canonical URL, its alternates in the other languages and the language switcher.
struct PageHeader: TemplateValue {
    /// `<link rel="alternate" hreflang>`: one per language, and `x-default`.
    struct Alternate: TemplateValue {
        var language: String
        var url: String

        var templateValue: Any { ["language": language, "url": url] }
    }

    /// One entry of the language switcher, its URL relative to the page.
    struct LanguageChoice: TemplateValue {
        var language: String
        var name: String
        var url: String
        var current: Bool

        var templateValue: Any { ["language": language, "name": name, "url": url, "current": current] as [String: Any] }
    }

    var title: String
    var language: String?
    var url: String?
    var alternates: [Alternate]?
    var languages: [LanguageChoice]?
    /// The fallback notice of a page shown in the default language.
    var notTranslated: String?

    var templateValue: Any {
        TemplateFields([
            "title": title, "language": language, "url": url, "alternates": alternates, "switchLanguages": languages.map { _ in true },
            "languages": languages, "notTranslated": notTranslated,
        ]).dictionary
    }
}
