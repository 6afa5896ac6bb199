import DetourDiagnostics
import DetourProxyCore
import Foundation

/// The findings the server's own error log shows: each of the plan's log signatures the
/// sandbox's logs hold after the probes, at its line, with the log line as evidence.
enum VerifyLogFindings {
    /// The findings, and the sites whose error pages they show broken.
    static func findings(_ plan: SandboxPlan, logs: String, catalogue: [RuleDescription]) -> (findings: [Diagnostic], brokenPageSites: Set<Int>) {
        guard !plan.logSignatures.isEmpty else { return ([], []) }
        let lines = logs.split(separator: "\n")
        let severities = Dictionary(catalogue.map { ($0.id, $0.severity) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<String> = []
        var findings: [Diagnostic] = []
        var broken: Set<Int> = []
        for signature in plan.logSignatures {
            guard let line = lines.first(where: { line in signature.parts.allSatisfy { line.contains($0) } }) else { continue }
            broken.formUnion(signature.brokenPagesOf)
            guard let rule = signature.rule, seen.insert("\(rule) \(signature.location.path):\(signature.location.line)").inserted else { continue }
            findings.append(
                Diagnostic(
                    severities[rule] ?? .warning, rule, signature.message, at: signature.location,
                    notes: [.init("the error log says: \(Self.shown(line))")]))
        }
        return (findings, broken)
    }

    /// A log line from its level on (`[error] 12#12: *3 could not find …`; the date is the
    /// sandbox run's); of a JSON line (Caddy's), its message, error and first error, not the
    /// request it holds.
    private static func shown(_ line: Substring) -> String {
        if line.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] {
            let first = (object["first_error"] as? [String: Any]).flatMap { $0["msg"] as? String }
            return [object["msg"] as? String, object["error"] as? String, first.map { "first error: " + $0 }].compactMap { $0 }.joined(separator: "; ")
        }
        let from = line.firstIndex(of: "[").map { line[$0...] } ?? line
        return from.count > 400 ? String(from.prefix(400)) + "…" : String(from)
    }
}
