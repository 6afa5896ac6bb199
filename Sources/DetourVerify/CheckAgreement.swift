import DetourDiagnostics

/// Where `detour check`'s reading of a configuration and `detour verify`'s run of it disagree:
/// the runtime oracles and `make check-real` judge check by it. Only the rules verify can
/// observe compare (`VerifyServer.observedRules`); the rules a server's refusal is reported as
/// compare as one (`refused`, at the line the server names; check's others beside it are not
/// judged, as the server stops there), and where the server refused the configuration and
/// nothing was probed, only refusals compare. Check's findings at a line verify lists as not
/// probed, or about statuses (`Diagnostic.codes`) no probe met, are judged only where verify
/// saw them too, and so is a soft status at a page the upstream serves.
public struct CheckAgreement: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Verify saw it on the real server; check did not say it.
        case missed
        /// Check said it; the real server does not show it.
        case falseAlarm = "false alarm"
        /// Both, at the same place, with other severities.
        case severity
        /// Both, for the same rule, at other lines.
        case place
    }

    public struct Disagreement: Sendable, Hashable, CustomStringConvertible {
        public var kind: Kind
        public var rule: String
        /// Where, in words: `nginx.conf:12`, or both places.
        public var place: String
        /// What the side that said it said, and the first evidence verify gave.
        public var detail: String

        public var description: String { "\(kind.rawValue) \(rule) \(place): \(detail)" }
    }

    /// A finding as compared: its rule (refusals as one), file and line.
    private struct Key: Hashable, Comparable {
        var rule: String
        var path: String
        var line: Int

        static func < (left: Key, right: Key) -> Bool { (left.path, left.line, left.rule) < (right.path, right.line, right.rule) }
        var place: String { "\(path):\(line)" }
    }

    public var server: VerifyServer

    public init(_ server: VerifyServer) { self.server = server }

    /// Check's findings beside verify's report of the same configuration.
    public func disagreements(checked: [Diagnostic], verified: Verifier.Report) -> [Disagreement] {
        var said = compared(checked)
        let seen = compared(verified.diagnostics)
        if verified.observations.isEmpty { said = said.filter { $0.key.rule == refused } }
        // Where verify says it could not probe, what it did not see is not judged.
        let unprobed = Set(verified.notProbed.map { "\($0.location.path):\($0.location.line)" })
        said = said.filter { !unprobed.contains($0.key.place) || seen[$0.key] != nil }
        // A finding about statuses no probe met (verify makes the upstream fail; a 400 or 414 the
        // server raises for a malformed request, it does not ask for) is not judged.
        let met = Set(verified.observations.map(\.status))
        said = said.filter { key, finding in seen[key] != nil || finding.codes.map { !met.isDisjoint(with: $0) } ?? true }
        // A page the upstream serves is sent with its `=200` only where the upstream answers
        // the page's own path, which the fake upstream, failing every path at once, never does:
        // a soft status at a page verify saw proxied is not judged (real nginx sends it).
        let proxiedPages = Set(seen.keys.filter { $0.rule == server.name + ".error-page-proxied" }.map(\.place))
        said = said.filter { key, _ in !(key.rule == server.name + ".error-page-soft-status" && proxiedPages.contains(key.place) && seen[key] == nil) }
        // A server stops at the first line it refuses: where check names that one too, its
        // others are not judged.
        let refusals = seen.keys.filter { $0.rule == refused }
        if !refusals.isEmpty, refusals.allSatisfy({ said[$0] != nil }) {
            said = said.filter { $0.key.rule != refused || seen[$0.key] != nil }
        }
        var found: [Disagreement] = []
        for (key, finding) in seen.sorted(by: { $0.key < $1.key }) {
            if let other = said[key], other.severity != finding.severity {
                found.append(
                    Disagreement(
                        kind: .severity, rule: key.rule, place: "\(key.place): check says \(other.severity), verify \(finding.severity)",
                        detail: Self.words(finding)))
            }
        }
        var missed = seen.keys.filter { said[$0] == nil }.sorted()
        var alarms = said.keys.filter { seen[$0] == nil }.sorted()
        for key in missed {
            guard let index = alarms.firstIndex(where: { $0.rule == key.rule }) else { continue }
            found.append(
                Disagreement(kind: .place, rule: key.rule, place: "verify at \(key.place), check at \(alarms[index].place)", detail: Self.words(seen[key]!)))
            missed.removeAll { $0 == key }
            alarms.remove(at: index)
        }
        found += missed.map { Disagreement(kind: .missed, rule: $0.rule, place: $0.place, detail: Self.words(seen[$0]!)) }
        found += alarms.map { Disagreement(kind: .falseAlarm, rule: $0.rule, place: $0.place, detail: Self.words(said[$0]!)) }
        return found
    }

    /// The rule every refusal compares as.
    private var refused: String { server.name + ".refused" }

    /// A finding's message and its first note (verify's first evidence).
    private static func words(_ finding: Diagnostic) -> String {
        ([finding.message] + finding.notes.prefix(1).map(\.message)).joined(separator: "; ")
    }

    private func compared(_ diagnostics: [Diagnostic]) -> [Key: Diagnostic] {
        var found: [Key: Diagnostic] = [:]
        for diagnostic in diagnostics where server.observedRules.contains(diagnostic.rule) {
            let rule = server.refusalRules.contains(diagnostic.rule) ? refused : diagnostic.rule
            let key = Key(rule: rule, path: diagnostic.location.path, line: diagnostic.location.line)
            // Two findings of one rule on one line: the graver decides.
            if let other = found[key], other.severity >= diagnostic.severity { continue }
            found[key] = diagnostic
        }
        return found
    }
}
