import DetourDiagnostics

/// One check over a configuration. Each rule has its own id, a located message that says
/// what visitors would see, and a one-line fix as a note.
protocol NginxRule: Sendable {
    static var id: String { get }
    func check(_ context: NginxCheckContext) -> [Diagnostic]
}

extension NginxRule {
    /// Runs `check` on every error page in effect in every server, with where its target leads.
    func eachPage(_ context: NginxCheckContext, _ check: (NginxServer, NginxErrorPage, NginxPageTarget) -> Diagnostic?) -> [Diagnostic] {
        context.servers.flatMap { server in
            context.resolvedPages(in: server).compactMap { check(server, $0.0, $0.1) }
        }
    }

    /// Runs `check` on every static location that serves error pages, with their URIs.
    func eachServingLocation(_ context: NginxCheckContext, _ check: (NginxLocation, [String]) -> [Diagnostic]) -> [Diagnostic] {
        context.servers.flatMap { server in
            context.pageLocations(in: server).flatMap { check($0.0, $0.1) }
        }
    }

    static func fix(_ text: String) -> Diagnostic.Note { .init("fix: " + text) }

    static func codes(_ codes: some Sequence<Int>) -> String {
        codes.sorted().map(String.init).joined(separator: ", ")
    }
}
