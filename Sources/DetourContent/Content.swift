import DetourDiagnostics
import DetourLanguages

/// Everything loaded from `content/`, checked and with Markdown rendered.
public struct Content: Sendable {
    public var site: SiteConfig
    /// Sorted by status.
    public var codes: [ErrorCode]
    /// Sorted by title, drafts excluded.
    public var articles: [Article]
    /// By language; a language without a file has none.
    public var translationFiles: [String: Translation]

    public init(site: SiteConfig, codes: [ErrorCode], articles: [Article], translations: [String: Translation] = [:]) {
        self.site = site
        self.codes = codes
        self.articles = articles
        self.translationFiles = translations
    }

    /// The translations with their lookup, falling back to the site's default language.
    public var translations: Translations { Translations(defaultLanguage: site.language, byLanguage: translationFiles) }

    public func code(_ status: Int) -> ErrorCode? { codes.first { $0.status == status } }

    /// A code's visitor texts in `language`, each falling back to the default language's.
    public func text(of code: ErrorCode, in language: String) -> LocalizedCodeText {
        let translated = translations.codeText(code.status, in: language)
        let advice = translated.flatMap { found in found.text.advice.map { ($0, found.file) } } ?? (code.advice, code.relativePath)
        return LocalizedCodeText(
            title: translated?.text.title ?? code.title, summary: translated?.text.summary ?? code.summary, advice: advice.0, adviceFile: advice.1)
    }

    /// The UI strings of `language`: its file's, else the default language's, else the built-in English.
    public func strings(in language: String) -> [String: String] { translations.strings(in: language) }
}

/// What a visitor reads about a code in one language.
public struct LocalizedCodeText: Sendable {
    public var title: String
    public var summary: String
    public var advice: Located<String>?
    /// Content-relative file the advice is written in, for its relative links.
    public var adviceFile: String
}
