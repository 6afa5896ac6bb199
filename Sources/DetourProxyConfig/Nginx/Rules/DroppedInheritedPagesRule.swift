import DetourDiagnostics

/// 3. An `error_page` in a server or location replaces every inherited one, so codes the
/// outer level covered lose their page here.
struct DroppedInheritedPagesRule: NginxRule {
    static let id = "nginx.inherited-error-page-dropped"

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        if server.definesErrorPages { report(server.inherited, server.scope, into: &found) }
        for location in server.allLocations where location.definesErrorPages {
            report(location.inherited, location.scope, into: &found)
        }
        return found
    }

    private func report(_ inherited: NginxScope, _ own: NginxScope, into found: inout [Diagnostic]) {
        let dropped = inherited.coveredCodes.subtracting(own.coveredCodes)
        guard !dropped.isEmpty, let first = own.errorPages.first else { return }
        let level = inherited.errorPagesLevel?.name ?? "outer"
        let sources = inherited.errorPages.filter { !Set($0.codes).isDisjoint(with: dropped) }
        found.append(.warning(Self.id, "this error_page drops the \(level)-level pages for \(Self.codes(dropped)): an error_page here replaces all inherited ones", at: first.directive.location,
                              notes: sources.map { .init("inherited from here", at: $0.directive.location) } + [Self.fix("repeat the inherited error_page lines here, or include the same snippet at both levels")]))
    }
}
