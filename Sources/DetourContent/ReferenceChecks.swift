import DetourDiagnostics
import DetourSupport

/// Checks between files: duplicate statuses and slugs, related articles and article codes that
/// name nothing.
struct ReferenceChecks {
    let codes: [ErrorCode]
    let articles: [Article]
    /// Statuses whose definition file failed to load: already reported there.
    var failedStatuses: Set<Int> = []

    func run(_ diagnostics: inout [Diagnostic]) {
        var firstStatus: [Int: ErrorCode] = [:]
        for code in codes.sorted(by: { $0.location < $1.location }) {
            if let first = firstStatus[code.status] {
                diagnostics.append(
                    .error(
                        "code.duplicate-status", "status \(code.status) is already defined", at: code.statusLocation,
                        notes: [.init("first defined here", at: first.statusLocation)]))
            } else {
                firstStatus[code.status] = code
            }
        }

        var firstSlug: [String: Article] = [:]
        for article in articles.sorted(by: { $0.source < $1.source }) {
            if let first = firstSlug[article.slug] {
                diagnostics.append(
                    .error(
                        "article.duplicate-slug", "another article already uses the URL name '\(article.slug)'", at: article.slugLocation,
                        notes: [.init("first used here", at: first.slugLocation)]))
            } else {
                firstSlug[article.slug] = article
            }
        }

        let publishedSlugs = articles.filter { !$0.draft }.map(\.slug)
        for code in codes {
            for related in code.related {
                guard let article = firstSlug[related.value] else {
                    var message = "related article '\(related.value)' does not exist"
                    if let suggestion = Suggestion.closest(to: related.value, among: publishedSlugs) { message += "; did you mean '\(suggestion)'?" }
                    diagnostics.append(.error("code.unknown-related-article", message, at: related.location))
                    continue
                }
                if article.draft {
                    diagnostics.append(
                        .error(
                            "code.unknown-related-article", "related article '\(related.value)' is a draft and will not be published", at: related.location,
                            notes: [.init("marked draft here", at: article.source)]))
                }
            }
        }

        for article in articles where !article.draft {
            for code in article.codes where firstStatus[code.value] == nil && !failedStatuses.contains(code.value) {
                diagnostics.append(.error("article.unknown-code", "code \(code.value) has no definition in codes/", at: code.location))
            }
        }
    }
}
