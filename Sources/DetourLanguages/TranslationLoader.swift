import DetourDiagnostics
import DetourSupport
import DetourYAML
import Foundation

/// Reads `translations/<language>.yml` for every language `site.yml` lists and warns where a
/// language would fall back to the default one: a missing file, string or code text.
public struct TranslationLoader {
    static let folder = "translations"

    /// What it needs to know of the site: its languages (the default one first), where site.yml
    /// names each, and where site.yml is.
    public struct Site: Sendable {
        public var languages: [String]
        public var languageLocations: [String: SourceLocation]
        public var location: SourceLocation
        var language: String { languages[0] }

        public init(languages: [String], languageLocations: [String: SourceLocation], location: SourceLocation) {
            self.languages = languages
            self.languageLocations = languageLocations
            self.location = location
        }
    }

    /// What it needs to know of each code: whether it has pages, and visitor advice to translate.
    public struct Code: Sendable {
        public var status: Int
        public var generatesPage: Bool
        public var hasAdvice: Bool

        public init(status: Int, generatesPage: Bool, hasAdvice: Bool) {
            self.status = status
            self.generatesPage = generatesPage
            self.hasAdvice = hasAdvice
        }
    }

    let root: URL
    let displayRoot: String
    let site: Site
    let codes: [Code]
    /// The statuses a code may have; a translation's `codes:` keys must be among them.
    let statuses: ClosedRange<Int>

    public init(root: URL, displayRoot: String, site: Site, codes: [Code], statuses: ClosedRange<Int>) {
        self.root = root
        self.displayRoot = displayRoot
        self.site = site
        self.codes = codes
        self.statuses = statuses
    }

    public func load(_ diagnostics: inout [Diagnostic]) -> [String: Translation] {
        let listed = Set(site.languages)
        var translations: [String: Translation] = [:]
        let listing = DirectoryWalker.list(root.path, suffixes: [".yml", ".yaml"], below: Self.folder)
        for relative in listing.files {
            let language = ((relative as NSString).lastPathComponent as NSString).deletingPathExtension
            let display = displayRoot + "/" + relative
            guard listed.contains(language) else {
                var message = "translation '\(language)' is not among the languages in site.yml, so it is not used"
                if let suggestion = Suggestion.closest(to: language, among: site.languages) { message += "; did you mean '\(suggestion)'?" }
                diagnostics.append(.warning("translation.unused", message, at: SourceLocation(path: display)))
                continue
            }
            switch SourceFile.read(URL(fileURLWithPath: root.path + "/" + relative), displayPath: display) {
            case .success(let file):
                translations[language] = TranslationReader.read(file, language: language, relativePath: relative, statuses: statuses, diagnostics: &diagnostics)
            case .failure(let diagnostic):
                diagnostics.append(diagnostic)
            }
        }
        for language in site.languages.dropFirst() {
            guard let translation = translations[language] else {
                let at = site.languageLocations[language] ?? site.location
                diagnostics.append(
                    .warning(
                        "translation.missing", "no \(displayRoot)/\(Self.folder)/\(language).yml: error pages in '\(language)' use the \(site.language) texts",
                        at: at))
                continue
            }
            reportGaps(in: translation, &diagnostics)
        }
        if let own = translations[site.language] {
            for (status, text) in own.codes.sorted(by: { $0.key < $1.key }) {
                diagnostics.append(
                    .warning(
                        "translation.unused", "code \(status) in the default language '\(site.language)' is written in codes/, so this entry is not used",
                        at: text.location))
            }
        }
        return translations
    }

    /// One warning per kind of gap, naming everything that falls back.
    private func reportGaps(in translation: Translation, _ diagnostics: inout [Diagnostic]) {
        let language = translation.language
        let missingStrings = UIStrings.keys.filter { translation.strings[$0] == nil }
        if !missingStrings.isEmpty {
            let names = missingStrings.map { "'\($0)'" }.joined(separator: ", ")
            diagnostics.append(
                .warning(
                    "translation.missing",
                    "translation '\(language)' lacks \(missingStrings.count == 1 ? "string" : "strings") \(names); the \(site.language) text is used",
                    at: translation.location))
        }
        let defined = Set(codes.map(\.status))
        var untranslated: [Int] = []
        for code in codes where code.generatesPage {
            guard let text = translation.codes[code.status] else {
                untranslated.append(code.status)
                continue
            }
            var missing: [String] = []
            if text.title == nil { missing.append("title") }
            if text.summary == nil { missing.append("summary") }
            if text.advice == nil, code.hasAdvice { missing.append("advice") }
            if !missing.isEmpty {
                diagnostics.append(
                    .warning(
                        "translation.missing",
                        "translation '\(language)' of code \(code.status) lacks \(missing.joined(separator: ", ")); the \(site.language) text is used",
                        at: text.location))
            }
        }
        if !untranslated.isEmpty {
            let list = untranslated.map(String.init).joined(separator: ", ")
            diagnostics.append(
                .warning(
                    "translation.missing",
                    "translation '\(language)' has no text for \(untranslated.count == 1 ? "code" : "codes") \(list); the \(site.language) text is used",
                    at: translation.location))
        }
        for (status, text) in translation.codes.sorted(by: { $0.key < $1.key }) where !defined.contains(status) {
            diagnostics.append(
                .warning("translation.unknown-code", "code \(status) has no definition in codes/, so its translation is not used", at: text.location))
        }
    }
}
