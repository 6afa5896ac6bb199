import DetourDiagnostics
import DetourProxyCore

/// The findings the server's own error log shows: each of the plan's log signatures the
/// sandbox's logs hold after the probes, at its line, with the log line as evidence.
enum VerifyLogFindings {
    static func findings(_ plan: SandboxPlan, logs: String, catalogue: [RuleDescription]) -> [Diagnostic] {
        guard !plan.logSignatures.isEmpty else { return [] }
        let lines = logs.split(separator: "\n")
        let severities = Dictionary(catalogue.map { ($0.id, $0.severity) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<String> = []
        return plan.logSignatures.compactMap { signature in
            guard let line = lines.first(where: { $0.contains(signature.text) }),
                seen.insert("\(signature.rule) \(signature.location.path):\(signature.location.line)").inserted
            else { return nil }
            return Diagnostic(
                severities[signature.rule] ?? .warning, signature.rule, signature.message, at: signature.location,
                notes: [.init("the error log says: \(Self.withoutTimestamp(line))")])
        }
    }

    /// A log line from its level on (`[error] 12#12: *3 could not find …`): the date is the sandbox run's.
    private static func withoutTimestamp(_ line: Substring) -> String {
        guard let level = line.firstIndex(of: "[") else { return String(line) }
        return String(line[level...])
    }
}
