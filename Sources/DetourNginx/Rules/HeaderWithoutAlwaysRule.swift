import DetourDiagnostics

/// 10. `add_header` in effect where error pages are served, without `always`: nginx adds it
/// only to 200, 201, 204, 206, 301, 302, 303, 304, 307 and 308 responses, never to the page.
struct HeaderWithoutAlwaysRule: NginxRule {
    static let about = NginxRules.addHeaderWithoutAlways

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        // One header inherited by every page's location is one finding listing the pages.
        var pages: [(header: NginxDirective, uris: [String])] = []
        for serving in facts.servingLocations {
            for header in serving.location.scope.addHeaders where header.lastValue != "always" {
                if let known = pages.firstIndex(where: { $0.header == header }) {
                    pages[known].uris += serving.uris.filter { !pages[known].uris.contains($0) }
                } else {
                    pages.append((header, serving.uris))
                }
            }
        }
        return pages.map { header, uris in
            Self.finding(
                "add_header \(header.firstValue ?? "") never reaches the error pages served here (\(uris.joined(separator: ", "))): without 'always' nginx adds headers to successful responses only",
                at: header.location,
                notes: [
                    Self.fix("end the line with 'always'")
                ])
        }
    }
}
