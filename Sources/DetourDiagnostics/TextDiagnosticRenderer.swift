/// `path:line:col: severity: [rule] message`, notes indented below, the rule's help line
/// where it has a page, then a count line;
/// `style` adds a terminal's colours and links around the same words. `grouped` shows the
/// findings of one cause as their first, with a note naming the others' places.
enum TextDiagnosticRenderer {
    /// Places named in a group's note; `--verbose` lists every instance.
    static let examplesShown = 3

    static func render(_ diagnostics: [Diagnostic], style: TerminalStyle = .plain, grouped: Bool = false, help: HelpLinks = .none) -> String {
        let groups = grouped ? DiagnosticGroup.grouping(diagnostics) : diagnostics.map { DiagnosticGroup(instances: [$0]) }
        var out = ""
        for group in groups {
            let diagnostic = group.first
            out +=
                "\(style.location(diagnostic.location)): \(style.severity(diagnostic.severity)): \(style.rule(diagnostic.rule)) \(diagnostic.message)\n"
            for note in diagnostic.notes {
                if let location = note.location {
                    out += "  \(style.location(location)): \(style.severity(.note)): \(note.message)\n"
                } else {
                    out += "  \(style.severity(.note)): \(note.message)\n"
                }
            }
            if group.instances.count > 1 { out += "  \(style.severity(.note)): \(others(group))\n" }
            if let line = help.line(diagnostic.rule) { out += "  help: \(style.help(line))\n" }
        }
        if !diagnostics.isEmpty {
            var line = summary(groups.map(\.first))
            if groups.count < diagnostics.count { line += " (\(diagnostics.count) instances; --verbose lists each)" }
            out += style.bold(line) + "\n"
        }
        return out
    }

    /// "3 more like it: a.conf:7:24, a.conf:8:24 and b.conf:2:5", at most `examplesShown` named.
    private static func others(_ group: DiagnosticGroup) -> String {
        let rest = group.instances.dropFirst()
        var places = rest.prefix(examplesShown).map(\.location.description)
        if rest.count > examplesShown { places.append("\(rest.count - examplesShown) more") }
        let list = places.count > 1 ? places.dropLast().joined(separator: ", ") + " and " + places[places.count - 1] : places[0]
        return "\(rest.count) more like it: \(list)"
    }

    static func summary(_ diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        let notes = diagnostics.filter { $0.severity == .note }.count
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        // Notes are counted when there are any: "0 errors, 0 warnings" above three notes reads as silence.
        return "\(plural(errors, "error")), \(plural(warnings, "warning"))" + (notes > 0 ? ", \(plural(notes, "note"))" : "")
    }
}
