/// Lines a server always follows with another that says what came of them: PHP-FPM writes
/// `FPM initialization failed` after each message with which it refuses its configuration
/// (`PHPFPMRefusalLines`). A log or a thread often holds only the first line; an article that
/// explains the consequence explains the lines that lead to it, so an article's pattern for the
/// consequence stands for those lines too, as `ErrnoWording`'s variants stand for a pattern's
/// other wordings.
enum LogConsequence {
    /// Each consequence, with the patterns of the lines that lead to it.
    private static let causes: [String: [String]] = ["FPM initialization failed": PHPFPMRefusalLines.patterns]

    /// `pattern`, and the patterns of the lines that lead to it when it is a consequence.
    static func withCauses(_ pattern: String) -> [String] {
        [pattern] + (causes[pattern] ?? [])
    }
}
