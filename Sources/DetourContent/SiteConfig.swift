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
    public var footer: String?
    /// BCP 47 tag written into `<html lang>`.
    public var language: String
    /// Lets raw HTML in Markdown through; off unless the site opts in.
    public var allowRawHTML: Bool
    /// Where `public/` is installed on the proxy host; the server snippets point there.
    public var installPath: String
    public var location: SourceLocation
}
