import DetourDiagnostics
import DetourProxyCore
import Foundation

/// The findings the server's own error log shows: each of the plan's log signatures the
/// sandbox's logs hold after the probes, at its line, with the log line as evidence.
enum VerifyLogFindings {
    /// What the logs show of the plan's signatures.
    struct Logged {
        var findings: [Diagnostic] = []
        /// The error pages shown broken: `[site, status]`, the status the failing page was for
        /// where the line says it (Caddy's `first_error`), else 0 (any).
        var brokenPages: Set<[Int]> = []
        /// The pages asked of the upstream that failed, as `brokenPages`.
        var upstreamPages: Set<[Int]> = []
    }

    static func findings(_ plan: SandboxPlan, logs: String, catalogue: [RuleDescription]) -> Logged {
        guard !plan.logSignatures.isEmpty else { return Logged() }
        let lines = logs.split(separator: "\n")
        let severities = Dictionary(catalogue.map { ($0.id, $0.severity) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<String> = []
        var logged = Logged()
        for signature in plan.logSignatures {
            let matching = lines.filter { line in signature.parts.allSatisfy { Self.ownPart(of: line).contains($0) } }
            guard let line = matching.first else { continue }
            for status in Set(matching.map { Self.firstErrorStatus(of: $0) ?? 0 }) {
                logged.brokenPages.formUnion(signature.brokenPagesOf.map { [$0, status] })
                logged.upstreamPages.formUnion(signature.upstreamPagesOf.map { [$0, status] })
            }
            guard let rule = signature.rule, seen.insert("\(rule) \(signature.location.path):\(signature.location.line)").inserted else { continue }
            logged.findings.append(
                Diagnostic(
                    severities[rule] ?? .warning, rule, signature.message, at: signature.location,
                    notes: [.init("the error log says: \(Self.shown(line))")]))
        }
        return logged
    }

    /// What a line says of its own failure: of a JSON line (Caddy's), all but its `first_error`
    /// object, which tells the failure that sent the request to `handle_errors`, not this one.
    private static func ownPart(of line: Substring) -> Substring {
        guard line.hasPrefix("{"), let key = line.range(of: "\"first_error\":{") else { return line }
        var depth = 1
        var quoted = false
        var escaped = false
        var index = key.upperBound
        while index < line.endIndex, depth > 0 {
            let character = line[index]
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = quoted
            } else if character == "\"" {
                quoted.toggle()
            } else if !quoted {
                depth += character == "{" ? 1 : character == "}" ? -1 : 0
            }
            index = line.index(after: index)
        }
        return line[..<key.lowerBound] + line[index...]
    }

    /// The status of the failure a JSON line's `first_error` tells (Caddy's: the one its
    /// `handle_errors` was answering).
    private static func firstErrorStatus(of line: Substring) -> Int? {
        guard line.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return (object["first_error"] as? [String: Any])?["status"] as? Int
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
