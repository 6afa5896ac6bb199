import DetourDiagnostics
import DetourProxyCore

/// A page visitors are redirected to (`errorloc`, `http-request redirect location`) is fetched
/// by a second request, which meets the frontend's `http-request deny`/`auth` rules again, and
/// those of the backend its path is routed to. A rule that the page's path brings into play
/// refuses it: visitors who got past it with their first request get a 401 or 403 instead of
/// the page. (Pages HAProxy sends itself, `errorfile` and `return`, are final: no rule runs on
/// them.)
struct HAProxyProtectedPageRule: HAProxyRule {
    static let about = HAProxyRules.protected

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        context.sites.flatMap { site in
            ErrorPageChecks.protectedPages(site.model).compactMap { route, stand, _ -> Diagnostic? in
                let redirected = route.origin
                guard let refusal = redirected.refusals.first(where: { $0.rule.line == stand.at }) else { return nil }
                let redirect = redirected.sending[0]
                var notes = [Diagnostic.Note("the redirect is here", at: redirect.line)]
                if redirected.sending.count > 1 { notes.append(.init("and \(redirected.sending.count - 1) more lines send visitors there")) }
                if let route = refusal.route {
                    notes.append(.init("the page's own request is routed there from \(site.proxy.kind) '\(site.proxy.name)'", at: route.line))
                }
                notes.append(
                    Self.fix(
                        "leave the pages out of the rule (for example 'unless { path_beg \(redirect.folder) }'), or send them with errorfile, which no rule runs on"
                    ))
                return Self.finding(
                    "http-request \(refusal.rule.action) in \(refusal.in.kind) '\(refusal.in.name)' applies to '\(redirect.path)', where \(redirect.directive) sends visitors: they get \(refusal.rule.status), not the page",
                    at: refusal.rule.line, notes: notes)
            }
        }
    }
}
