import DetourDiagnostics

/// A site with error pages whose proxies have no `handle_response`: the upstream's own 5xx are
/// responses, not errors, so `handle_errors` never sees them. One finding per site, at its first
/// such proxy, the others as notes: the fix is the same for each. A site whose only pages come
/// from that upstream has no branded page to put in their place (caddy.error-page-proxied).
struct CaddyUpstreamPassThroughRule: CaddyRule {
    static let about = CaddyRules.upstreamPassThrough

    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic] {
        guard
            site.model.routes.contains(where: { route in
                guard case .errors = route.origin else { return false }
                return !route.codes.isEmpty && route.upstream == nil
            })
        else { return [] }
        let passing = site.proxies.filter { !$0.handlesResponses }
        guard let first = passing.first else { return [] }
        let others = passing.dropFirst().map { Diagnostic.Note("this \($0.line[0].text) passes them too", at: context.location(of: $0.line[0])) }
        return [
            Self.finding(
                "\(first.line[0].text) passes the upstream's own error responses through: handle_errors answers only errors Caddy raises, so visitors get the application's 500/503 body",
                at: context.location(of: first.line[0]),
                notes: others + [
                    Self.fix(
                        "inside the \(first.line[0].text) block, '@error status 5xx' and 'handle_response @error { error \"upstream error\" {rp.status_code} }' (detour's detour_upstream_errors snippet); one argument to error is a message, and the status becomes 500"
                    )
                ])
        ]
    }
}
