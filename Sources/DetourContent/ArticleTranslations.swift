import DetourDiagnostics
import Foundation

/// Translated articles, written as Hugo writes them: `<name>.<language>.md` beside `<name>.md`.
/// A translation has its own title, summary, body and date; its slug, codes, tags, audience and
/// log lines are its original's, so every language lists it under the same address.
enum ArticleTranslations {
    /// The language a file translates into, when its name ends `.<language>.md` for one of the
    /// site's other languages.
    static func language(of relativePath: String, languages: [String]) -> String? {
        let stem = ((relativePath as NSString).lastPathComponent as NSString).deletingPathExtension
        let suffix = (stem as NSString).pathExtension
        guard !suffix.isEmpty, languages.dropFirst().contains(suffix) else { return nil }
        return suffix
    }

    /// The original's path of a translation (`a/x.de.md` → `a/x.md`).
    static func originalPath(of relativePath: String) -> String {
        let folder = (relativePath as NSString).deletingLastPathComponent
        let stem = (((relativePath as NSString).lastPathComponent as NSString).deletingPathExtension as NSString).deletingPathExtension
        return (folder.isEmpty ? "" : folder + "/") + stem + ".md"
    }

    /// The articles with their translations attached; a translation of no article is reported.
    static func attach(_ read: [Article], languages: [String], diagnostics: inout [Diagnostic]) -> [Article] {
        var originals: [Article] = []
        var translations: [(language: String, article: Article)] = []
        for article in read {
            if let language = language(of: article.relativePath, languages: languages) {
                translations.append((language, article))
            } else {
                originals.append(article)
            }
        }
        let byPath = Dictionary(originals.enumerated().map { ($0.element.relativePath, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for (language, translation) in translations {
            let original = originalPath(of: translation.relativePath)
            guard let index = byPath[original] else {
                diagnostics.append(
                    .error(
                        "article.orphan-translation",
                        "'\((translation.relativePath as NSString).lastPathComponent)' translates '\(original)' into '\(language)', but there is no such article",
                        at: translation.source))
                continue
            }
            if translation.draft { continue }
            var translated = translation
            let base = originals[index]
            translated.slug = base.slug
            translated.codes = base.codes
            translated.tags = base.tags
            translated.audience = base.audience
            translated.logPatterns = base.logPatterns
            translated.confirmation = base.confirmation
            translated.draft = base.draft
            translated.updated = translation.updated ?? base.updated
            originals[index].translations[language] = translated
        }
        return originals
    }
}
