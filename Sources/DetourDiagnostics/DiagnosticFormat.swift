/// How diagnostics are printed: `text` for people, `json` and `sarif` for CI.
public enum DiagnosticFormat: String, CaseIterable, Sendable {
    case text
    case json
    case sarif

    /// `catalogue` describes the rules in SARIF's rule metadata; `extra` goes beside the
    /// findings in JSON (`detour check`'s coverage); `style` colours text for a terminal, and
    /// `grouped` shows text findings of one cause as one (JSON and SARIF keep every instance);
    /// `help` says where each rule is explained.
    public func render(
        _ diagnostics: [Diagnostic], toolVersion: String, catalogue: [RuleDescription] = [], extra: [String: any Encodable & Sendable] = [:],
        style: TerminalStyle = .plain, grouped: Bool = false, help: HelpLinks = .none
    ) -> String {
        let sorted = diagnostics.sortedForOutput()
        switch self {
        case .text: return TextDiagnosticRenderer.render(sorted, style: style, grouped: grouped, help: help)
        case .json: return JSONDiagnosticRenderer.render(sorted, extra: extra, help: help)
        case .sarif: return SARIFDiagnosticRenderer.render(sorted, toolVersion: toolVersion, catalogue: catalogue, help: help)
        }
    }
}
