import DetourDiagnostics
import DetourLanguages
import DetourYAML
import Foundation

/// Reads and validates `site.yml`. Colours and URLs end up in CSS and attributes, so they are
/// checked against strict shapes rather than escaped after the fact.
struct SiteConfigReader {
    static let fields = [
        "name", "base_url", "logo", "colors", "support", "status_page", "edit_url", "footer", "error_footer", "languages", "raw_html", "smart_punctuation",
        "install_path",
        "error_path",
        "auto_retry", "stale_if_error", "rule_pages",
    ]
    static let defaultInstallPath = "/usr/share/detour"
    static let defaultErrorPath = "/detour-errors/"
    static let paletteFields = ["background", "text", "accent", "muted"]

    let contentRoot: URL
    let displayRoot: String

    func read(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> SiteConfig? {
        guard var reader = FieldReader.parse(file.text, at: file.start, subject: "site configuration", fields: Self.fields, diagnostics: &diagnostics) else {
            return nil
        }

        let name = reader.string("name", required: true)
        let baseURL = reader.string("base_url", required: true)
        let logo = reader.string("logo")
        var light = SiteConfig.Palette.defaultLight
        var dark = SiteConfig.Palette.defaultDark
        var lightWritten: [String: SourceLocation] = [:]
        var darkWritten: [String: SourceLocation] = [:]
        reader.nested("colors", subject: "colors", fields: ["light", "dark"]) { colors in
            colors.nested("light", subject: "light colors", fields: Self.paletteFields) {
                light = Self.palette(&$0, defaults: light, written: &lightWritten, diagnostics: &diagnostics)
            }
            colors.nested("dark", subject: "dark colors", fields: Self.paletteFields) {
                dark = Self.palette(&$0, defaults: dark, written: &darkWritten, diagnostics: &diagnostics)
            }
        }
        Self.checkContrast(light, scheme: "light", written: lightWritten, diagnostics: &diagnostics)
        Self.checkContrast(dark, scheme: "dark", written: darkWritten, diagnostics: &diagnostics)
        var support = SiteConfig.Support()
        reader.nested("support", subject: "support contact", fields: ["email", "url", "phone"]) { fields in
            support.email = fields.string("email")?.value
            if let url = fields.string("url") { support.url = Self.checkedURL(url, field: "support.url", diagnostics: &diagnostics) }
            support.phone = fields.string("phone")?.value
        }
        let statusPage = reader.string("status_page").flatMap { Self.checkedURL($0, field: "status_page", diagnostics: &diagnostics) }
        let editURL = reader.string("edit_url").flatMap { Self.checkedURL($0, field: "edit_url", diagnostics: &diagnostics) }
        let footer = reader.string("footer")?.value
        let errorFooter = reader.string("error_footer")?.value
        let languages = reader.stringList("languages")
        let errorPath = reader.string("error_path")
        let markdown = MarkdownOptions(
            rawHTML: reader.bool("raw_html")?.value ?? false, smartPunctuation: reader.bool("smart_punctuation")?.value ?? false)
        let autoRetry = reader.bool("auto_retry")?.value ?? false
        let rulePages = reader.bool("rule_pages")?.value ?? true
        let installPath = reader.string("install_path")
        // Up to a week: a cache's copy older than that is more likely wrong than helpful.
        let staleIfError = reader.int("stale_if_error", in: 1...604_800)
        reader.reportUnknownFields()
        diagnostics += reader.diagnostics

        var seenLanguages: [String: SourceLocation] = [:]
        for language in languages {
            if let problem = LanguageTag.problem(with: language.value) {
                diagnostics.append(.error("site.invalid-language", "'languages' \(problem)", at: language.location))
            } else if let first = seenLanguages[language.value.lowercased()] {
                diagnostics.append(
                    .error(
                        "site.duplicate-language", "language '\(language.value)' is listed twice", at: language.location,
                        notes: [.init("first listed here", at: first)]))
            } else {
                seenLanguages[language.value.lowercased()] = language.location
            }
        }
        if let errorPath, let problem = Self.errorPathProblem(errorPath.value) {
            diagnostics.append(.error("site.invalid-path", "'error_path' \(problem)", at: errorPath.location))
        }
        // Written into server configurations unquoted, so only plain absolute paths.
        if let installPath, SiteConfig.installPath(installPath.value) == nil {
            diagnostics.append(
                .error(
                    "site.invalid-path", "'install_path' must be an absolute path of letters, digits, '.', '_', '-' and '/', not '\(installPath.value)'",
                    at: installPath.location))
        }
        let checkedBase = baseURL.flatMap { Self.checkedURL($0, field: "base_url", diagnostics: &diagnostics) }
        let logoSVG = logo.flatMap { LogoLoader(contentRoot: contentRoot, displayRoot: displayRoot).load($0, diagnostics: &diagnostics) }

        guard let name, let checkedBase else { return nil }
        var config = SiteConfig(
            name: name.value,
            baseURL: checkedBase.hasSuffix("/") ? checkedBase : checkedBase + "/",
            logoSVG: logoSVG,
            light: light,
            dark: dark,
            support: support,
            statusPage: statusPage,
            footer: footer,
            errorFooter: errorFooter,
            languages: languages.isEmpty ? ["en"] : languages.map(\.value),
            errorPath: errorPath.map { $0.value.hasSuffix("/") ? $0.value : $0.value + "/" } ?? Self.defaultErrorPath,
            markdown: markdown,
            installPath: installPath.flatMap { SiteConfig.installPath($0.value) } ?? Self.defaultInstallPath,
            location: reader.location
        )
        config.autoRetry = autoRetry
        config.rulePages = rulePages
        config.staleIfError = staleIfError?.value
        config.editURL = editURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        config.languageLocations = Dictionary(languages.map { ($0.value, $0.location) }, uniquingKeysWith: { first, _ in first })
        return config
    }

    /// The path is written into server configurations and must not meet the application's own
    /// URLs: not `/errors/`, which applications use, and no dot-prefixed part, which hardening
    /// configurations deny (`location ~ /\.`).
    private static func errorPathProblem(_ path: String) -> String? {
        guard path.range(of: #"^/[A-Za-z0-9._/-]*$"#, options: .regularExpression) != nil, path != "/", !path.contains("//") else {
            return "must be an absolute URL path of letters, digits, '.', '_', '-' and '/', such as '/detour-errors/', not '\(path)'"
        }
        if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            return "must not have a part starting with '.': hardening configurations deny such paths, so the pages would answer 403; not '\(path)'"
        }
        if path == "/errors" || path == "/errors/" {
            return "must not be '/errors/', which applications often serve themselves; use '/detour-errors/'"
        }
        return nil
    }

    /// `written`: where each colour set in site.yml is, for locating contrast warnings.
    private static func palette(
        _ reader: inout FieldReader, defaults: SiteConfig.Palette, written: inout [String: SourceLocation], diagnostics: inout [Diagnostic]
    ) -> SiteConfig.Palette {
        var palette = defaults
        func color(_ key: String) -> String? {
            guard let value = reader.string(key) else { return nil }
            guard value.value.range(of: #"^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"#, options: .regularExpression) != nil else {
                diagnostics.append(.error("site.invalid-color", "'\(key)' must be a hex colour such as '#0a5bd3', not '\(value.value)'", at: value.location))
                return nil
            }
            written[key] = value.location
            return value.value
        }
        palette.background = color("background") ?? palette.background
        palette.text = color("text") ?? palette.text
        palette.accent = color("accent") ?? palette.accent
        palette.muted = color("muted") ?? palette.muted
        return palette
    }

    /// Text, links, the button and muted lines are each painted on the background: below
    /// WCAG AA some visitors cannot read them. Located at the colour written in site.yml.
    private static func checkContrast(_ palette: SiteConfig.Palette, scheme: String, written: [String: SourceLocation], diagnostics: inout [Diagnostic]) {
        for (key, color) in [("text", palette.text), ("accent", palette.accent), ("muted", palette.muted)] {
            guard let ratio = ColorContrast.ratio(color, on: palette.background), ratio < ColorContrast.minimum,
                let location = written[key] ?? written["background"]
            else { continue }
            let shown = String(format: "%.2f", ratio)
            diagnostics.append(
                .warning(
                    "site.low-contrast",
                    "\(scheme) '\(key)' \(color) on background \(palette.background) has a contrast of \(shown):1; text needs at least 4.5:1 (WCAG AA) to be readable",
                    at: location))
        }
    }

    /// Absolute http(s) URLs only: they are written into links on pages served from anywhere.
    private static func checkedURL(_ value: Located<String>, field: String, diagnostics: inout [Diagnostic]) -> String? {
        guard let url = URL(string: value.value), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty
        else {
            diagnostics.append(.error("site.invalid-url", "'\(field)' must be an absolute http or https URL, not '\(value.value)'", at: value.location))
            return nil
        }
        return value.value
    }
}
