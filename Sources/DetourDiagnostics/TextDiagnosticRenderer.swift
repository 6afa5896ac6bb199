/// `path:line:col: severity: [rule] message`, notes indented below, then a count line.
enum TextDiagnosticRenderer {
    static func render(_ diagnostics: [Diagnostic]) -> String {
        var out = ""
        for diagnostic in diagnostics {
            out += "\(diagnostic.location.description): \(diagnostic.severity.rawValue): [\(diagnostic.rule)] \(diagnostic.message)\n"
            for note in diagnostic.notes {
                if let location = note.location {
                    out += "  \(location.description): note: \(note.message)\n"
                } else {
                    out += "  note: \(note.message)\n"
                }
            }
        }
        if !diagnostics.isEmpty {
            out += summary(diagnostics) + "\n"
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
