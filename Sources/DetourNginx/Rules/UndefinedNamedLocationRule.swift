import DetourDiagnostics

/// 2. `error_page 502 @fallback;` where the server has no `location @fallback`.
struct UndefinedNamedLocationRule: NginxRule {
    static let about = NginxRules.errorPageUndefinedNamedLocation

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        eachPage(of: server, facts) { server, page, target in
            guard case .named(let name, nil) = target else { return nil }
            return Self.finding(
                "named location '\(name)' is not defined in this server: nginx answers 500 when \(Self.codes(page.codes)) occurs",
                at: page.targetLocation,
                notes: [
                    .init("server starts here", at: server.directive.location),
                    Self.fix("add 'location \(name) { … }' to this server, or point error_page at a page URI"),
                ])
        }
    }
}
