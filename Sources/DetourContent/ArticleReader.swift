import DetourDiagnostics
import DetourLayout
import DetourLogs
import DetourYAML
import Foundation

/// Reads one article: front matter fields and the raw Markdown body (rendered later, once every
/// slug is known, so links can be checked).
enum ArticleReader {
    static let fields = ["title", "summary", "codes", "tags", "audience", "updated", "log_patterns", "confirm", "aliases", "slug", "draft"]

    /// - Parameter relativePath: path below the content folder, e.g. `articles/php/fpm-down.md`.
    static func read(_ file: SourceFile, relativePath: String, diagnostics: inout [Diagnostic]) -> Article? {
        let parts: FrontMatter
        switch FrontMatter.split(file) {
        case .success(let split): parts = split
        case .failure(let diagnostic):
            diagnostics.append(diagnostic)
            return nil
        }
        let yamlStart = file.start.shifted(lines: parts.yamlLineOffset)
        guard var reader = FieldReader.parse(parts.yaml, at: yamlStart, subject: "article front matter", fields: fields, diagnostics: &diagnostics) else {
            return nil
        }

        let title = reader.string("title", required: true)
        let summary = reader.string("summary", required: true)
        let codes = reader.intList("codes", in: ErrorCodeReader.statusRange)
        let tagFields = reader.stringList("tags")
        for tag in tagFields where Slug.make(tag.value).isEmpty {
            diagnostics.append(.error("content.invalid-value", "tag '\(tag.value)' needs a letter or digit to name its page", at: tag.location))
        }
        let tags = tagFields.map(\.value).filter { !Slug.make($0).isEmpty }
        let audienceField = reader.string("audience")
        let updated = reader.string("updated")
        let logPatterns = reader.stringList("log_patterns")
        let confirmation = readConfirmation(&reader, diagnostics: &diagnostics)
        let aliases = reader.stringList("aliases").map(\.value)
        let explicitSlug = reader.string("slug")
        let draft = reader.bool("draft")?.value ?? false
        reader.reportUnknownFields()
        diagnostics += reader.diagnostics

        var audience = Article.Audience.`operator`
        if let audienceField {
            if let parsed = Article.Audience(rawValue: audienceField.value) {
                audience = parsed
            } else {
                let allowed = Article.Audience.allCases.map(\.rawValue).joined(separator: ", ")
                diagnostics.append(
                    .error("content.invalid-value", "'audience' must be one of \(allowed), not '\(audienceField.value)'", at: audienceField.location))
            }
        }
        if let updated, !isISODate(updated.value) {
            diagnostics.append(.error("content.invalid-value", "'updated' must be a date written YYYY-MM-DD, not '\(updated.value)'", at: updated.location))
        }

        let stem = (relativePath as NSString).lastPathComponent.replacingOccurrences(of: ".md", with: "", options: [.anchored, .backwards])
        let slug: String
        if let explicitSlug {
            guard Slug.isValid(explicitSlug.value) else {
                diagnostics.append(
                    .error(
                        "article.invalid-slug", "'slug' must use lowercase letters, digits and hyphens, e.g. '\(Slug.make(explicitSlug.value))'",
                        at: explicitSlug.location))
                return nil
            }
            slug = explicitSlug.value
        } else {
            slug = Slug.make(stem)
            guard !slug.isEmpty else {
                diagnostics.append(.error("article.invalid-slug", "cannot derive a URL name from file name '\(stem)'; add a 'slug' field", at: file.start))
                return nil
            }
        }

        guard let title, let summary else { return nil }
        var article = Article(
            slug: slug,
            title: title.value,
            summary: summary.value,
            codes: codes,
            tags: tags,
            audience: audience,
            updated: updated?.value,
            logPatterns: logPatterns,
            draft: draft,
            body: parts.body,
            bodyStartLine: parts.bodyStartLine,
            source: file.start,
            slugLocation: explicitSlug?.location ?? file.start,
            relativePath: relativePath
        )
        article.confirmation = confirmation
        article.aliases = aliases
        return article
    }

    /// `confirm`: a command, or commands by server, each naming only known placeholders.
    private static func readConfirmation(_ reader: inout FieldReader, diagnostics: inout [Diagnostic]) -> LogConfirmation {
        var commands: [LogConfirmation.Command] = []
        for (name, text) in reader.textByName("confirm") {
            if let name, !LogConfirmation.servers.contains(name.value) {
                let known = LogConfirmation.servers.joined(separator: ", ")
                diagnostics.append(.error("content.invalid-value", "'confirm' names commands by server: \(known), not '\(name.value)'", at: name.location))
                continue
            }
            guard !text.value.isEmpty else {
                diagnostics.append(.error("content.missing-field", "'confirm' needs a command", at: text.location))
                continue
            }
            for unknown in LogConfirmation.unknownPlaceholders(in: text.value) {
                let known = LogConfirmation.placeholders.map { "{\($0)}" }.joined(separator: ", ")
                diagnostics.append(
                    .error("content.invalid-value", "'confirm' fills in \(known), not '{\(unknown)}'", at: text.location))
            }
            commands.append(LogConfirmation.Command(server: name?.value, text: text.value))
        }
        return LogConfirmation(commands)
    }

    /// YYYY-MM-DD naming a real day. Counted by hand: a Calendar per file is costly on Linux.
    static func isISODate(_ text: String) -> Bool {
        let parts = text.split(separator: "-")
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }
}
