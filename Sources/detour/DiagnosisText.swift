import DetourLogs
import Foundation

/// `detour diagnose`'s output: a report for people, or JSON for tools.
enum DiagnosisText {
    static func text(_ diagnosis: Diagnosis, shapes: Int) -> String {
        let results = diagnosis.results
        var out = "\(diagnosis.lines) \(diagnosis.lines == 1 ? "line" : "lines") read; \(results.count) \(results.count == 1 ? "cause" : "causes") found\n"
        for found in results {
            let statuses = found.cause.statuses.isEmpty ? "" : " (visitors saw \(found.cause.statuses.map(String.init).joined(separator: ", ")))"
            let incidents = found.incidents == found.count ? "" : " in \(found.incidents) \(found.incidents == 1 ? "incident" : "incidents")"
            out += "\n\(found.count) \(found.count == 1 ? "line" : "lines")\(incidents): \(found.cause.title)\(statuses)\n"
            out += "  \(found.cause.url)\n"
            if let first = found.first, let last = found.last { out += "  first \(first), last \(last)\n" }
            let logged = found.statusesLogged
            if !logged.isEmpty { out += "  statuses in the log \(logged.map { "\($0.status) (\($0.count))" }.joined(separator: ", "))\n" }
            let upstreams = found.upstreamsByCount
            if !upstreams.isEmpty {
                let shown = upstreams.prefix(3).map { "\($0.upstream) (\($0.count))" }.joined(separator: ", ")
                out += "  \(upstreams.count == 1 ? "upstream" : "upstreams") \(shown)\(upstreams.count > 3 ? " and \(upstreams.count - 3) more" : "")\n"
            }
            if let example = found.lines.first { out += "  e.g. \(example.prefix(300))\n" }
            if let confirmation = found.confirmation { out += "  confirm: \(confirmation)\n" }
        }
        out += "\n"
        if diagnosis.routine > 0 {
            out +=
                "\(diagnosis.routine) routine \(diagnosis.routine == 1 ? "line" : "lines"): servers starting, stopping, reading their configuration, requests answered\n"
        }
        out += "\(diagnosis.unexplained) \(diagnosis.unexplained == 1 ? "line" : "lines") no article explains"
        let top = diagnosis.topShapes(shapes)
        out += top.isEmpty ? "\n" : "; the most frequent:\n"
        for (shape, count) in top { out += "  \(count)  \(shape)\n" }
        if diagnosis.overlong > 0 { out += "\(diagnosis.overlong) \(diagnosis.overlong == 1 ? "line was" : "lines were") longer than 64 KiB and not read\n" }
        return out
    }

    static func json(_ diagnosis: Diagnosis, shapes: Int) -> String {
        struct Cause: Encodable {
            var slug, title, url: String
            var statuses: [Int]
            var count: Int
            var incidents: Int
            var first, last: String?
            var upstreams: [Upstream]
            var confirm: String?
            var loggedStatuses: [LoggedStatus]
            var lines: [String]

            enum CodingKeys: String, CodingKey {
                case slug, title, url, statuses, count, incidents, first, last, upstreams, confirm
                case loggedStatuses = "logged_statuses"
                case lines
            }
        }
        struct LoggedStatus: Encodable {
            var status: Int
            var count: Int
        }
        struct Upstream: Encodable {
            var upstream: String
            var count: Int
        }
        struct Shape: Encodable {
            var shape: String
            var count: Int
        }
        struct Unexplained: Encodable {
            var count: Int
            var shapes: [Shape]
        }
        struct Routine: Encodable {
            var count: Int
        }
        struct Report: Encodable {
            var lines: Int
            var overlong: Int
            var causes: [Cause]
            var routine: Routine
            var unexplained: Unexplained
        }
        let report = Report(
            lines: diagnosis.lines, overlong: diagnosis.overlong,
            causes: diagnosis.results.map {
                Cause(
                    slug: $0.cause.slug, title: $0.cause.title, url: $0.cause.url, statuses: $0.cause.statuses, count: $0.count, incidents: $0.incidents,
                    first: $0.first, last: $0.last, upstreams: $0.upstreamsByCount.map { Upstream(upstream: $0.upstream, count: $0.count) },
                    confirm: $0.confirmation,
                    loggedStatuses: $0.statusesLogged.map { LoggedStatus(status: $0.status, count: $0.count) }, lines: $0.lines)
            },
            routine: Routine(count: diagnosis.routine),
            unexplained: Unexplained(count: diagnosis.unexplained, shapes: diagnosis.topShapes(shapes).map { Shape(shape: $0.shape, count: $0.count) })
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self) + "\n"
    }
}
