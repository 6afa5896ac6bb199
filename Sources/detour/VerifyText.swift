import DetourDiagnostics
import DetourVerify

/// `detour verify`'s report beside its findings: the sandbox's rewrites, what was not probed,
/// and a table of what each route answered under each upstream mode; and their JSON forms.
enum VerifyText {
    struct Located: Encodable, Sendable {
        var location: SourceLocation
        var text: String
    }

    /// Where `detour check` says otherwise (`--compare-check`).
    struct Disagreement: Encodable, Sendable {
        var kind, rule, place, detail: String

        init(_ disagreement: CheckAgreement.Disagreement) {
            kind = disagreement.kind.rawValue
            rule = disagreement.rule
            place = disagreement.place
            detail = disagreement.detail
        }
    }

    /// The comparison with `detour check`, for the text report.
    static func render(_ disagreements: [CheckAgreement.Disagreement]) -> String {
        guard !disagreements.isEmpty else { return "detour check says the same on every rule verify observes.\n" }
        return "Where detour check says otherwise (\(disagreements.count)):\n" + disagreements.map { "  \($0)\n" }.joined()
    }

    struct Answer: Encodable, Sendable {
        var method, scheme, host, path, upstream, body: String
        var status, port: Int
        var contentType, cacheControl, retryAfter: String?
        var reachedUpstream: Bool

        init(_ observation: VerifyObservation) {
            method = observation.method
            scheme = observation.tls ? "https" : "http"
            host = observation.host
            port = observation.port
            path = observation.path
            upstream = observation.mode.description
            body = observation.body.description
            status = observation.status
            contentType = observation.contentType
            cacheControl = observation.cacheControl
            retryAfter = observation.retryAfter
            reachedUpstream = observation.reachedUpstream
        }

        enum CodingKeys: String, CodingKey {
            case method, scheme, host, port, path, upstream, body, status
            case contentType = "content_type"
            case cacheControl = "cache_control"
            case retryAfter = "retry_after"
            case reachedUpstream = "reached_upstream"
        }
    }

    static func render(_ report: Verifier.Report) -> String {
        var out = "Sandbox rewrites (\(report.rewrites.count)):\n"
        for rewrite in report.rewrites { out += "  \(rewrite.location.path):\(rewrite.location.line): \(rewrite.reason)\n" }
        if !report.notProbed.isEmpty {
            out += "Not probed (\(report.notProbed.count)):\n"
            for item in report.notProbed { out += "  \(item.location.path):\(item.location.line): \(item.reason)\n" }
        }
        // One line per route: its answer under each mode.
        var routes: [String: [String]] = [:]
        var order: [String] = []
        // A name served on several ports is told apart by the port it was asked on.
        let ports = Dictionary(grouping: report.observations, by: \.host).mapValues { Set($0.map(\.port)).count }
        for observation in report.observations {
            let port = ports[observation.host, default: 1] > 1 ? " (port \(observation.port))" : ""
            let key = "\(observation.method) \(observation.tls ? "https://" : "")\(observation.host)\(observation.path)\(port)"
            if routes[key] == nil { order.append(key) }
            let body =
                switch observation.body {
                case .page(_, let path): "page \(path.split(separator: "/").last ?? "")"
                case .upstream: "upstream's"
                case .builtin: "server's"
                case .site: "site's"
                case .empty: "empty"
                case .failedRead(let text): "'\(text)'"
                }
            routes[key, default: []].append("\(observation.mode): \(observation.status == 0 ? "no answer" : "\(observation.status) \(body)")")
        }
        out += "Answers (\(report.observations.count) probes):\n"
        for key in order { out += "  \(key)\n    " + routes[key]!.joined(separator: "; ") + "\n" }
        return out
    }
}
