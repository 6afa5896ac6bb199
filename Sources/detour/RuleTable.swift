import DetourDiagnostics

/// The rule catalogue as people read it: the README's table (`--list-rules`) and the list in
/// `detour check --help`.
enum RuleTable {
    static func markdown(_ catalogue: [RuleDescription]) -> String {
        var out = "| rule | severity | what visitors would get |\n|---|---|---|\n"
        for rule in catalogue {
            out += "| `\(rule.id)` | \(rule.severity.rawValue) | \(rule.consequence) |\n"
        }
        return out
    }

    /// `- id (severity): summary`, one rule a line.
    static func summaries(_ catalogue: [RuleDescription]) -> String {
        catalogue.map { "- \($0.id) (\($0.severity.rawValue)): \($0.summary)" }.joined(separator: "\n")
    }
}
