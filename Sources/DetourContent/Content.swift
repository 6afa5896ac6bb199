import DetourDiagnostics
import DetourLanguages

/// Everything loaded from `content/`, checked, with its Markdown parsed for pages to render.
public struct Content: Sendable {
    public var site: SiteConfig
    /// Sorted by status.
    public var codes: [ErrorCode]
    /// Sorted by title, drafts excluded.
    public var articles: [Article]
    /// By language; a language without a file has none.
    public var translationFiles: [String: Translation]
    /// Translated advice as parsed when its links were checked, by translation file and status.
    public var translatedAdvice: [String: [Int: MarkdownDocument]]
    /// By slug, the heading ids other pages link to (`HeadingLinkCheck.linkedFromElsewhere`).
    public var linkedHeadings: [String: Set<String>] = [:]

    public init(
        site: SiteConfig, codes: [ErrorCode], articles: [Article], translations: [String: Translation] = [:],
        translatedAdvice: [String: [Int: MarkdownDocument]] = [:]
    ) {
        self.site = site
        self.codes = codes
        self.articles = articles
        self.translationFiles = translations
        self.translatedAdvice = translatedAdvice
    }

    /// The translations with their lookup, falling back to the site's default language.
    public var translations: Translations { Translations(defaultLanguage: site.language, byLanguage: translationFiles) }

    public func code(_ status: Int) -> ErrorCode? { codes.first { $0.status == status } }

    /// A code's visitor texts in `language`, each falling back to the default language's.
    public func text(of code: ErrorCode, in language: String) -> LocalizedCodeText {
        let translated = translations.codeText(code.status, in: language)
        var text = LocalizedCodeText(
            title: translated?.text.title ?? code.title, summary: translated?.text.summary ?? code.summary, advice: code.advice,
            adviceFile: code.relativePath, adviceDocument: code.adviceDocument, adviceLanguage: site.language)
        if let translated, let advice = translated.text.advice {
            (text.advice, text.adviceFile, text.adviceLanguage) = (advice, translated.file, language)
            text.adviceDocument = translatedAdvice[translated.file]?[code.status] ?? MarkdownDocument(advice.value, options: site.markdown)
        }
        if text.adviceDocument == nil, let advice = text.advice { text.adviceDocument = MarkdownDocument(advice.value, options: site.markdown) }
        return text
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
    /// The advice parsed (once, when the content loaded).
    public var adviceDocument: MarkdownDocument?
    /// The language the advice is written in: the page's where translated, else the site's.
    public var adviceLanguage: String
}
