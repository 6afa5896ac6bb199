/// Every language's translation of the site, and the one lookup that falls back from a
/// language to the default one, then to the built-in English strings.
public struct Translations: Sendable {
    /// The site's default language, whose texts are the codes' own.
    public var defaultLanguage: String
    /// By language; a language without a file has none.
    public var byLanguage: [String: Translation]

    public init(defaultLanguage: String, byLanguage: [String: Translation] = [:]) {
        self.defaultLanguage = defaultLanguage
        self.byLanguage = byLanguage
    }

    public subscript(language: String) -> Translation? { byLanguage[language] }

    /// The UI strings of `language`: its file's, else the default language's, else the built-in English.
    public func strings(in language: String) -> [String: String] {
        var strings = UIStrings.english
        strings.merge(byLanguage[defaultLanguage]?.strings ?? [:]) { _, new in new }
        if language != defaultLanguage { strings.merge(byLanguage[language]?.strings ?? [:]) { _, new in new } }
        return strings
    }

    /// A code's texts in `language` and the file they are written in, where that language has
    /// them; nil in the default language, whose texts are the code's own definition.
    public func codeText(_ status: Int, in language: String) -> (text: Translation.CodeText, file: String)? {
        guard language != defaultLanguage, let file = byLanguage[language], let text = file.codes[status] else { return nil }
        return (text, file.relativePath)
    }
}
