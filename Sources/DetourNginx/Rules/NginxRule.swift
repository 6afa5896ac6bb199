import DetourDiagnostics
import DetourProxyCore

/// One check over a configuration. Each rule has its own id, a located message that says
/// what visitors would see, and a one-line fix as a note.
protocol NginxRule: ProxyRule {
    /// Findings for one server block, given what its pages lead to; servers are checked
    /// independently, in parallel.
    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic]
}

extension NginxRule {
    /// Runs `check` on every error page in effect in `server`, with where its target leads.
    func eachPage(of server: NginxServer, _ facts: NginxServerFacts, _ check: (NginxServer, NginxErrorPage, NginxPageTarget) -> Diagnostic?) -> [Diagnostic] {
        facts.pages.compactMap { check(server, $0.page, $0.target) }
    }

    /// Runs `check` on every static location of `server` that serves error pages, with their URIs.
    func eachServingLocation(_ facts: NginxServerFacts, _ check: (NginxLocation, [String]) -> [Diagnostic]) -> [Diagnostic] {
        facts.servingLocations.flatMap { check($0.location, $0.uris) }
    }
}
