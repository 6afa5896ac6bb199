/// `path:line:col: severity: [rule] message`, notes indented below, then a count line;
/// `style` adds a terminal's colours and links around the same words.
enum TextDiagnosticRenderer {
    static func render(_ diagnostics: [Diagnostic], style: TerminalStyle = .plain) -> String {
        var out = ""
        for diagnostic in diagnostics {
            out +=
                "\(style.location(diagnostic.location)): \(style.severity(diagnostic.severity)): \(style.rule(diagnostic.rule)) \(diagnostic.message)\n"
            for note in diagnostic.notes {
                if let location = note.location {
                    out += "  \(style.location(location)): \(style.severity(.note)): \(note.message)\n"
                } else {
                    out += "  \(style.severity(.note)): \(note.message)\n"
                }
            }
        }
        if !diagnostics.isEmpty {
            out += style.bold(summary(diagnostics)) + "\n"
        }
        return out
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
