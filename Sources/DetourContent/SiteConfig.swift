import DetourDiagnostics

/// `content/site.yml`: the brand every page carries.
public struct SiteConfig: Sendable {
    public struct Palette: Sendable, Equatable {
        public var background: String
        public var text: String
        public var accent: String
        public var muted: String

        public static let defaultLight = Palette(background: "#ffffff", text: "#1d232b", accent: "#0a5bd3", muted: "#5b6570")
        public static let defaultDark = Palette(background: "#14181d", text: "#e7ebf0", accent: "#6ea8ff", muted: "#9aa4ae")
    }

    public struct Support: Sendable, Equatable {
        public var email: String?
        public var url: String?
        public var phone: String?

        public var isEmpty: Bool { email == nil && url == nil && phone == nil }
    }

    public var name: String
    /// Absolute URL of the hosted help site, always ending in `/`.
    public var baseURL: String
    /// The logo's SVG markup, ready to inline.
    public var logoSVG: String?
    public var light: Palette
    public var dark: Palette
    public var support: Support
    public var statusPage: String?
    /// Where a page's source can be edited: the content folder's URL in a repository browser
    /// (`https://github.com/org/help/edit/main/content/`); each article adds its own path.
    public var editURL: String?
    /// Footer of the help site's pages.
    public var footer: String?
    /// Footer of the error pages, which are served by the proxy rather than the help site.
    public var errorFooter: String?
    /// BCP 47 tags, the default language first; error pages are built in each.
    public var languages: [String]
    /// The default language, written into the help site's `<html lang>`.
    public var language: String { languages[0] }
    /// Where each language is listed in `site.yml`, for warnings about its translation.
    public var languageLocations: [String: SourceLocation] = [:]
    /// The URL path the server snippets serve error pages under (`/detour-errors/`): chosen not to
    /// collide with the application, the files stay in `public/errors/`.
    public var errorPath: String
    /// How articles' Markdown is read (`raw_html`, `smart_punctuation`).
    public var markdown: MarkdownOptions
    /// Error pages of codes with a Retry-After carry a small script that re-checks the address
    /// and reloads once the site answers; off unless the site opts in, as no other page has a script.
    public var autoRetry = false
    /// Whether the help site carries a page per rule of `detour check` and `build` (`rules/`),
    /// which findings link; on unless the site opts out (a help site for visitors only).
    public var rulePages = true
    /// Seconds a cached page may still be served after it expired while the backend fails
    /// (`stale-if-error`, RFC 5861): Varnish's grace. Nil leaves the cache's own default.
    public var staleIfError: Int?
    /// Where `public/` is installed on the proxy host; the server snippets point there.
    public var installPath: String
    public var location: SourceLocation

    /// An install path as server configurations take it unquoted: absolute, of letters, digits,
    /// `.`, `_`, `-` and `/`, without a trailing `/`; nil for anything else.
    public static func installPath(_ path: String) -> String? {
        guard path.range(of: #"^/[A-Za-z0-9._/-]*$"#, options: .regularExpression) != nil else { return nil }
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
