import DetourDiagnostics

/// 4. A proxied location without `*_intercept_errors on`: nginx replaces only the errors it
/// raises itself, so the application's own 500 or 503 reaches visitors as the application sent it.
/// An `auth_request` service's location is left alone: nginx reads only its status, and
/// answers any but 2xx, 401 and 403 with its own 500; so is a named location nothing names.
struct UninterceptedUpstreamRule: NginxRule {
    static let about = NginxRules.upstreamPassThrough

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for location in server.allLocations {
            guard let pass = location.upstreamPass, location.scope.intercepts[pass.module] == nil else { continue }
            // nginx's own 502 and 504 (upstream down or slow) are replaced either way.
            let passedThrough = location.scope.coveredCodes.filter { $0 >= 500 && $0 != 502 && $0 != 504 }
            // Who can reach the location is asked last: it reads the whole server.
            guard !passedThrough.isEmpty, !server.isAuthService(location), server.isReachable(location) else { continue }
            found.append(
                Self.finding(
                    "\(pass.module)_intercept_errors is off here: nginx still replaces the 502 and 504 it raises when the upstream is down or slow, but a \(Self.codes(passedThrough)) sent by the application reaches visitors with the application's own body",
                    at: pass.directive.location,
                    notes: [
                        Self.fix("add '\(pass.module)_intercept_errors on;' to this location")
                    ]))
        }
        return found
    }
}
