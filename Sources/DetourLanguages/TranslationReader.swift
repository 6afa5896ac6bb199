import DetourDiagnostics
import DetourSupport
import DetourYAML

/// Reads `translations/<language>.yml`:
/// ```yaml
/// strings:            # the keys of UIStrings
///   try_again: Erneut versuchen
/// codes:
///   502:
///     title: Bad Gateway
///     summary: …
///     advice: |
///       …
/// ```
enum TranslationReader {
    static let fields = ["strings", "codes"]
    static let codeFields = ["title", "summary", "advice"]

    static func read(_ file: SourceFile, language: String, relativePath: String, statuses: ClosedRange<Int>, diagnostics: inout [Diagnostic]) -> Translation? {
        guard var reader = FieldReader.parse(file.text, at: file.start, subject: "translation file", fields: fields, diagnostics: &diagnostics) else {
            return nil
        }
        var translation = Translation(language: language, relativePath: relativePath, location: reader.location)
        let known = UIStrings.keys
        for (key, node) in reader.entries("strings") ?? [] {
            guard known.contains(key.value) else {
                var message = "unknown string '\(key.value)' in translation '\(language)'"
                if let suggestion = Suggestion.closest(to: key.value, among: known) { message += "; did you mean '\(suggestion)'?" }
                diagnostics.append(.warning("translation.unknown-key", message, at: key.location))
                continue
            }
            guard let text = node.scalar?.string.trimmingWhitespace(), !text.isEmpty else {
                diagnostics.append(.error("content.type-mismatch", "string '\(key.value)' must be text", at: reader.location(of: node)))
                continue
            }
            translation.strings[key.value] = text
        }
        for (key, node) in reader.entries("codes") ?? [] {
            guard let status = Int(key.value), statuses.contains(status) else {
                diagnostics.append(
                    .error("content.out-of-range", "'\(key.value)' is not a status between \(statuses.lowerBound) and \(statuses.upperBound)", at: key.location)
                )
                continue
            }
            guard var entry = reader.reader(for: node, subject: "translation of code \(status)", fields: codeFields) else { continue }
            translation.codes[status] = Translation.CodeText(
                title: entry.string("title")?.value,
                summary: entry.string("summary")?.value,
                advice: entry.markdown("advice").map { file.indented($0) },
                location: key.location
            )
            entry.reportUnknownFields()
            reader.absorb(entry)
        }
        reader.reportUnknownFields()
        diagnostics += reader.diagnostics
        return translation
    }
}
