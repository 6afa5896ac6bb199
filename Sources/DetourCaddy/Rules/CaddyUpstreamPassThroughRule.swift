import DetourDiagnostics

/// A `reverse_proxy` without `handle_response` in a site with error pages: the upstream's own
/// 5xx are responses, not errors, so `handle_errors` never sees them.
struct CaddyUpstreamPassThroughRule: CaddyRule {
    static let about = CaddyRules.upstreamPassThrough

    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic] {
        guard !site.errorRoutes.isEmpty else { return [] }
        return site.proxies.filter { !$0.handlesResponses }.map { proxy in
            .warning(
                Self.id,
                "\(proxy.line[0].text) passes the upstream's own error responses through: handle_errors answers only errors Caddy raises, so visitors get the application's 500/503 body",
                at: context.location(of: proxy.line[0]),
                notes: [
                    Self.fix(
                        "inside the \(proxy.line[0].text) block, '@error status 5xx' and 'handle_response @error { error \"upstream error\" {rp.status_code} }' (detour's detour_upstream_errors snippet); one argument to error is a message, and the status becomes 500"
                    )
                ])
        }
    }
}
