import DetourDiagnostics

/// 3. An `error_page` in a server or location replaces every inherited one, so codes the
/// outer level covered lose their page here. In a location that intercepts its upstream's
/// errors, dropping a 4xx the location never raises itself is how the application's own
/// 404 or 429 page reaches visitors, so only the 4xx nginx raises there are reported.
struct DroppedInheritedPagesRule: NginxRule {
    static let about = NginxRules.inheritedErrorPageDropped

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        if server.definesErrorPages { report(server.inherited, server.scope, into: &found) }
        for location in server.allLocations where location.definesErrorPages {
            report(
                location.inherited, location.scope, keeping: Self.applicationCodes(of: location), condition: location.match == .condition ? location : nil,
                into: &found)
        }
        return found
    }

    /// The codes `location`'s own error pages drop from those it inherits, as reported.
    static func droppedCodes(_ location: NginxLocation) -> Set<Int> {
        location.inherited.coveredCodes.subtracting(location.scope.coveredCodes).subtracting(applicationCodes(of: location))
    }

    /// 4xx codes left to the application in a location that intercepts its upstream: all but
    /// those nginx raises there (authentication, access rules, reading the request body).
    static func applicationCodes(of location: NginxLocation) -> Set<Int> {
        guard let pass = location.upstreamPass, location.scope.intercepts[pass.module] != nil else { return [] }
        var raisedHere: Set<Int> = [408, 413]
        if location.scope.authBasic != nil || location.scope.authRequest != nil { raisedHere.insert(401) }
        if location.scope.authRequest != nil || location.scope.accessRules.contains(where: { $0.kind == .deny }) { raisedHere.insert(403) }
        return Set(400...499).subtracting(raisedHere)
    }

    private func report(
        _ inherited: NginxScope, _ own: NginxScope, keeping applicationCodes: Set<Int> = [], condition: NginxLocation? = nil, into found: inout [Diagnostic]
    ) {
        let dropped = inherited.coveredCodes.subtracting(own.coveredCodes).subtracting(applicationCodes)
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
        found.append(
            Self.finding(
                "this error_page drops the \(level)-level pages for \(Self.codes(dropped)): an error_page here replaces all inherited ones",
                at: first.directive.location, notes: notes))
    }
}
