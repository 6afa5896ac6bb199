import DetourDiagnostics

/// A `respond` without a matcher in the route that has the page's `file_server`: Caddy runs
/// `respond` first (directive order), so the page is never sent.
struct CaddyRespondShadowsFileServerRule: CaddyRule {
    static let about = CaddyRules.respondShadowsFileServer

    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic] {
        site.errorRoutes.compactMap { route in
            guard let respond = route.respond, let fileServer = route.fileServer else { return nil }
            let text = respond.count > 1 && !CaddyErrorRoute.isMatcher(respond[1]) ? " ('\(respond[1].text.prefix(40))')" : ""
            return Self.finding(
                "this respond answers every error\(text) before file_server runs: visitors never get the page", at: context.location(of: respond[0]),
                notes: [
                    .init("the page's file_server, which never runs", at: context.location(of: fileServer)),
                    Self.fix("remove the respond, or give it a matcher (respond @api \"…\") so only those requests get the text"),
                ])
        }
    }
}
