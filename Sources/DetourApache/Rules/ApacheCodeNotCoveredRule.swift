import DetourDiagnostics
import DetourProxyCore

/// A code detour made a page for that a site answers with Apache's built-in page: 503 is what
/// Apache sends when the upstream is down. 5xx codes count where something can fail (a ProxyPass).
struct ApacheCodeNotCoveredRule: ApacheRule {
    static let about = ApacheRules.codeNotCovered

    func check(_ site: ApacheSite, in context: ApacheCheckContext) -> [Diagnostic] {
        let gaps = ErrorPageChecks.uncoveredCodes(site.model, pageCodes: context.pageCodes)
        guard !gaps.isEmpty else { return [] }
        // A page in <Directory> looks like cover, but proxied requests never pass through it.
        let filesOnly = site.scope.sectionErrorDocuments.filter { $0.isForFilesOnly && gaps.contains($0.code) }.map { document in
            Diagnostic.Note(
                "this ErrorDocument \(document.code) is inside <Directory \(document.section?.argument ?? "")>: it answers requests for files there, never a proxied one",
                at: document.location)
        }
        // A page in a <Location> answers only the requests under it.
        let elsewhere = site.scope.sectionErrorDocuments.filter { gaps.contains($0.code) }.compactMap { document -> Diagnostic.Note? in
            guard let match = ApacheURLMatch(document.section) else { return nil }
            let starts = document.code < 500 || site.scope.proxiedStarts.isEmpty ? ["/"] : site.scope.proxiedStarts
            guard let missed = starts.first(where: { !match.takes($0) }) else { return nil }
            return Diagnostic.Note(
                "this ErrorDocument \(document.code) is inside <\(document.section?.name == .locationmatch ? "LocationMatch" : "Location") \(document.section?.argument ?? "")>: requests under '\(missed)' do not pass through it",
                at: document.location)
        }
        return [
            Self.finding(
                "\(site.name) has no ErrorDocument for \(Self.codes(gaps)) that every request gets: visitors get Apache's built-in page",
                at: site.scope.location,
                notes: filesOnly + elsewhere + [
                    Self.fix(
                        "include detour's snippets/apache.conf at server level, or add 'ErrorDocument <code> /detour-errors/<code>.html' with an Alias to the pages, at the site's top, in <Location /> or in a <Location> over each proxied path"
                    )
                ], codes: gaps)
        ]
    }
}
