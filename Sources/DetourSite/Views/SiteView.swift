import DetourContent
import DetourTemplates

/// The site as a page sees it: names, colours, where its root and home are from the page.
struct SiteView: TemplateValue {
    struct Palette: TemplateValue {
        var background, text, accent, muted: String

        init(_ palette: SiteConfig.Palette) {
            (background, text, accent, muted) = (palette.background, palette.text, palette.accent, palette.muted)
        }

        var templateData: TemplateData { TemplateFields(["background": background, "text": text, "accent": accent, "muted": muted]).templateData }
    }

    struct Support: TemplateValue {
        var email, url, phone: String?

        var templateData: TemplateData { TemplateFields(["email": email, "url": url, "phone": phone]).templateData }
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
        TemplateFields([
            "name": name, "baseURL": baseURL, "language": language, "colors": TemplateFields(["light": light, "dark": dark]),
            "root": root, "home": home, "paths": paths, "searchLanguage": searchLanguage, "logo": logo, "statusPage": statusPage,
            "footer": footer, "errorFooter": errorFooter, "autoRetry": autoRetry, "support": support, "icon": icon,
        ]).templateData
    }
}
