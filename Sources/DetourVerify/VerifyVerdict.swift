import DetourDiagnostics
import DetourProxyCore

/// Turns what the probes saw into findings with `detour check`'s rule ids (`SharedCheck`) and
/// severities (the dialect's catalogue), one per rule and place, each with its evidence:
/// - a status detour has a page for, answered without it, by a site that never answers with
///   one of detour's pages: `code-not-covered`, at the site;
/// - the upstream's own body for such a status, in a site that does answer with detour's pages
///   elsewhere: `upstream-errors-pass-through`, at the route;
/// - a 404 where a request that reached the upstream met its failure: `error-page-missing-file`;
/// - one of detour's pages sent with a success status: `error-page-soft-status`.
enum VerifyVerdict {
    private struct Group {
        var check: SharedCheck
        var location: SourceLocation
        var observations: [VerifyObservation] = []
    }

    static func findings(_ observations: [VerifyObservation], plan: SandboxPlan, dialect: String, catalogue: [RuleDescription], codes: Set<Int>)
        -> [Diagnostic]
    {
        // Routes whose requests reach the upstream while it answers: their failures are the upstream's.
        let reaching = Set(observations.filter { $0.mode == .answers && $0.reachedUpstream }.map { [$0.site, $0.route] })
        // Sites that answer some probe with one of detour's pages: they have pages, set up somewhere.
        let servingPages = Set(observations.filter { if case .page = $0.body { true } else { false } }.map(\.site))
        var groups: [String: Group] = [:]
        var order: [String] = []
        func add(_ check: SharedCheck, at location: SourceLocation, _ observation: VerifyObservation) {
            let key = "\(check.rawValue) \(location.path):\(location.line):\(location.column)"
            if groups[key] == nil {
                groups[key] = Group(check: check, location: location)
                order.append(key)
            }
            groups[key]!.observations.append(observation)
        }
        for observation in observations {
            let site = plan.sites[observation.site]
            let route = site.routes[observation.route]
            let reaches = reaching.contains([observation.site, observation.route])
            // A route that never reaches the upstream answers alike in every mode: judged once.
            if !reaches, observation.mode != .answers { continue }
            switch observation.body {
            case .page where (200..<400).contains(observation.status):
                add(.softStatus, at: route.location, observation)
            case .page:
                continue
            case .upstream where codes.contains(observation.status) && servingPages.contains(observation.site):
                add(.upstreamPassThrough, at: route.location, observation)
            case _ where reaches && observation.mode != .answers && observation.status == 404:
                add(.missingFile, at: route.location, observation)
            case _ where codes.contains(observation.status):
                add(.codeNotCovered, at: site.location, observation)
            default:
                continue
            }
        }
        let severities = Dictionary(catalogue.map { ($0.id, $0.severity) }, uniquingKeysWith: { first, _ in first })
        return order.map { key in
            let group = groups[key]!
            let rule = group.check.id(dialect)
            let evidence = group.observations.map(\.evidence)
            let shown = evidence.prefix(Self.shownEvidence).map { Diagnostic.Note("seen: \($0)") }
            let rest = evidence.count - shown.count
            let more = rest > 0 ? [Diagnostic.Note("and \(rest) more \(rest == 1 ? "probe" : "probes") alike")] : []
            return Diagnostic(severities[rule] ?? .warning, rule, message(group), at: group.location, notes: shown + more)
        }
    }

    private static func message(_ group: Group) -> String {
        let statuses = Set(group.observations.map(\.status)).sorted().map(String.init).joined(separator: ", ")
        let bodies = Set(group.observations.map(\.body.description)).sorted().joined(separator: " or ")
        switch group.check {
        case .codeNotCovered: return "visitors get \(statuses) with \(bodies), not detour's page: the server answers no probe with one"
        case .upstreamPassThrough: return "the upstream's own \(statuses) \(statuses.contains(",") ? "reach" : "reaches") visitors as it wrote it"
        case .missingFile: return "visitors get a 404 where the upstream failed: the error page's file is not found"
        case .softStatus: return "detour's error page goes out with status \(statuses)"
        case .proxied, .protected: return group.check.rawValue
        }
    }

    /// Probes listed under each finding.
    static let shownEvidence = 3
}
