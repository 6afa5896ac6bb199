/// How diagnostics are printed: `text` for people, `json` and `sarif` for CI.
public enum DiagnosticFormat: String, CaseIterable, Sendable {
    case text
    case json
    case sarif

    public func render(_ diagnostics: [Diagnostic], toolVersion: String) -> String {
        let sorted = diagnostics.sortedForOutput()
        switch self {
        case .text: return TextDiagnosticRenderer.render(sorted)
        case .json: return JSONDiagnosticRenderer.render(sorted)
        case .sarif: return SARIFDiagnosticRenderer.render(sorted, toolVersion: toolVersion)
        }
    }
}
