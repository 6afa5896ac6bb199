/// Findings of one rule with one cause, shown as one: the same rule at the same place (one
/// `error_page` line short of five codes), or pointing at the same place as its cause (four pages
/// missing from the one folder a `root` names, each note saying "the folder comes from here").
struct DiagnosticGroup {
    var instances: [Diagnostic]

    var first: Diagnostic { instances[0] }

    /// Groups in the order of each group's first instance; `diagnostics` in output order.
    static func grouping(_ diagnostics: [Diagnostic]) -> [DiagnosticGroup] {
        var groups: [DiagnosticGroup] = []
        var index: [Cause: Int] = [:]
        for diagnostic in diagnostics {
            let cause = Cause(diagnostic)
            if let at = index[cause] {
                groups[at].instances.append(diagnostic)
            } else {
                index[cause] = groups.count
                groups.append(DiagnosticGroup(instances: [diagnostic]))
            }
        }
        return groups
    }

    private struct Cause: Hashable {
        var rule: String
        var severity: Severity
        var place: SourceLocation

        /// The first located note names the cause when there is one; else the finding's place.
        init(_ diagnostic: Diagnostic) {
            rule = diagnostic.rule
            severity = diagnostic.severity
            place = diagnostic.notes.lazy.compactMap(\.location).first ?? diagnostic.location
        }
    }
}
