import DetourDiagnostics

/// 7. The location serving error pages is not `internal`: anyone can request the pages
/// directly, and they answer 200 and get indexed.
struct NotInternalRule: NginxRule {
    static let id = "nginx.error-page-not-internal"

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        eachServingLocation(facts) { location, uris in
            guard !location.isInternal else { return [] }
            return [Diagnostic(.note, Self.id, "\(location.description) serves error pages (\(uris.joined(separator: ", "))) but is not internal: they can be requested directly, answer 200 and may be indexed", at: location.directive.location, notes: [
                Self.fix("add 'internal;' to this location"),
            ])]
        }
    }
}
