import DetourDiagnostics
import DetourLogs
import DetourSupport

/// The articles' `log_patterns` as `detour diagnose` reads them: a pattern that is nothing but
/// changing parts matches no line, and one whose own text another article's pattern explains
/// as well or better (the same pattern in two articles, or one with more words that matches it)
/// sends its lines to that article.
enum LogPatternCheck {
    static func check(_ articles: [Article]) -> [Diagnostic] {
        let withPatterns = articles.filter { !$0.logPatterns.isEmpty }
        let causes = withPatterns.concurrentMap { LogCause(slug: $0.slug, title: $0.title, url: "", statuses: [], patterns: $0.logPatterns.map(\.value)) }
        let matcher = LogMatcher(causes)
        // Each article's patterns on every core: thousands of articles quoting server lines
        // take a noticeable share of loading when checked one after another.
        return Array(withPatterns.indices).concurrentMap { index in check(withPatterns, at: index, against: matcher) }.flatMap { $0 }
    }

    private static func check(_ withPatterns: [Article], at index: Int, against matcher: LogMatcher) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for pattern in withPatterns[index].logPatterns {
            let parsed = LogPattern(pattern.value)
            if parsed.isEmpty {
                found.append(
                    .warning(
                        "article.log-pattern-unmatchable",
                        "log pattern '\(pattern.value)' is only numbers, addresses and paths, which stand for any: it matches no line",
                        at: pattern.location,
                        notes: [
                            .init("fix: keep the words of the log line around them")
                        ]))
                continue
            }
            guard let explained = matcher.explanation(of: parsed.example) else {
                found.append(
                    .warning("article.log-pattern-unmatchable", "log pattern '\(pattern.value)' does not match even its own text", at: pattern.location))
                continue
            }
            guard explained.cause != index else { continue }
            let other = withPatterns[explained.cause]
            var notes: [Diagnostic.Note] = []
            if let written = other.logPatterns.first(where: { $0.value == explained.pattern.text }) {
                notes.append(.init("that pattern is here", at: written.location))
            }
            notes.append(.init("fix: make one of the two patterns longer, with the words that tell the problems apart"))
            found.append(
                .warning(
                    "article.log-pattern-shadowed",
                    "log pattern '\(pattern.value)' is explained by article '\(other.slug)' (its pattern '\(explained.pattern.text)' says as much or more): detour diagnose counts such lines there",
                    at: pattern.location, notes: notes))
        }
        return found
    }
}
