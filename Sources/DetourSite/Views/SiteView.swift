import DetourContent
import DetourTemplates

/// The site as a page sees it: names, colours, where its root and home are from the page.
struct SiteView: TemplateValue {
    struct Palette: TemplateValue {
        var background, text, accent, muted: String

        init(_ palette: SiteConfig.Palette) {
            (background, text, accent, muted) = (palette.background, palette.text, palette.accent, palette.muted)
        }

        var templateData: TemplateData {
            TemplateFields().with("background", background).with("text", text).with("accent", accent).with("muted", muted).templateData
        }
    }

    struct Support: TemplateValue {
        var email, url, phone: String?

        var templateData: TemplateData { TemplateFields().with("email", email).with("url", url).with("phone", phone).templateData }
    }

    var name: String
    var baseURL: String
    var language: String
    var light: Palette
    var dark: Palette
    /// The way from the page to the site's root (style sheet, script) and its language's home.
    var root: String
    var home: String
    var paths: [String: String]
    /// Set on another language's pages: the default language's search page searches its index.
    var searchLanguage: String?
    var logo: String?
    var statusPage: String?
    var footer: String?
    var errorFooter: String?
    var autoRetry: Bool
    var support: Support?
    /// The error pages' own icon, inlined.
    var icon: String?

    var templateData: TemplateData {
        TemplateFields().with("name", name).with("baseURL", baseURL).with("language", language)
            .with("colors", TemplateFields().with("light", light).with("dark", dark)).with("root", root).with("home", home).with("paths", paths)
            .with("searchLanguage", searchLanguage).with("logo", logo).with("statusPage", statusPage).with("footer", footer)
            .with("errorFooter", errorFooter).with("autoRetry", autoRetry).with("support", support).with("icon", icon).templateData
    }
}
