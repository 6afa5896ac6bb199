import DetourDiagnostics

/// 3. An `error_page` in a server or location replaces every inherited one, so codes the
/// outer level covered lose their page here.
struct DroppedInheritedPagesRule: NginxRule {
    static let id = "nginx.inherited-error-page-dropped"

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        if server.definesErrorPages { report(server.inherited, server.scope, into: &found) }
        for location in server.allLocations where location.definesErrorPages {
            report(location.inherited, location.scope, condition: location.match == .condition ? location : nil, into: &found)
        }
        return found
    }

    private func report(_ inherited: NginxScope, _ own: NginxScope, condition: NginxLocation? = nil, into found: inout [Diagnostic]) {
        let dropped = inherited.coveredCodes.subtracting(own.coveredCodes)
        guard !dropped.isEmpty, let first = own.errorPages.first else { return }
        let level = inherited.errorPagesLevel?.name ?? "outer"
        // One note per line, though a `$status` line stands for a page per code.
        var sources: [NginxDirective] = []
        for page in inherited.errorPages where !Set(page.codes).isDisjoint(with: dropped) && !sources.contains(page.directive) {
            sources.append(page.directive)
        }
        var notes: [Diagnostic.Note] = sources.map { .init("inherited from here", at: $0.location) }
        if let condition { notes.append(.init("only while 'if \(condition.pattern)' holds", at: condition.directive.location)) }
        notes.append(Self.fix("repeat the inherited error_page lines here, or include the same snippet at both levels"))
        found.append(.warning(Self.id, "this error_page drops the \(level)-level pages for \(Self.codes(dropped)): an error_page here replaces all inherited ones", at: first.directive.location, notes: notes))
    }
}
