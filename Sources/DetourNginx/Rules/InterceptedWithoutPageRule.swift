import DetourDiagnostics

/// 5. Intercepting is on, but some codes the upstream can send have no page here. An
/// `auth_request` service's location is left alone: nginx reads only its status.
struct InterceptedWithoutPageRule: NginxRule {
    static let about = NginxRules.interceptedCodeWithoutPage
    /// Statuses an application commonly sends for its own failures.
    static let upstreamCodes: Set<Int> = [500, 502, 503, 504]

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let expected = context.pageCodes.isEmpty ? Self.upstreamCodes : Set(context.pageCodes.filter { $0 >= 500 })
        for location in server.allLocations where !server.isAuthService(location) {
            guard let pass = location.upstreamPass, let intercept = location.scope.intercepts[pass.module] else { continue }
            let missing = expected.subtracting(location.scope.coveredCodes)
            guard !missing.isEmpty else { continue }
            found.append(
                Self.finding(
                    "in \(location.description) \(pass.module)_intercept_errors is on, but \(Self.codes(missing)) from the upstream \(missing.count == 1 ? "has" : "have") no error_page and \(missing.count == 1 ? "reaches" : "reach") visitors with the application's own body",
                    at: pass.directive.location,
                    notes: [
                        .init("intercepting is switched on here", at: intercept.location),
                        Self.fix("add 'error_page \(missing.sorted().map(String.init).joined(separator: " ")) …;' where this location can see it"),
                    ]))
        }
        return found
    }
}
