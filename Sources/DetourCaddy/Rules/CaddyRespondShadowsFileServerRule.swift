import DetourDiagnostics

/// A `respond` without a matcher in the route that has the page's `file_server`: Caddy runs
/// `respond` first (directive order), so the page is never sent. Or one in the block the page's
/// own request lands in, while the `file_server` is in a block it never reaches.
struct CaddyRespondShadowsFileServerRule: CaddyRule {
    static let about = CaddyRules.respondShadowsFileServer

    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic] {
        site.errorRoutes.compactMap { route in
            guard let respond = route.respond, let fileServer = route.fileServer ?? route.passedFileServer else { return nil }
            let text = respond.count > 1 && !CaddyErrorRoute.isMatcher(respond[1]) ? " ('\(respond[1].text.prefix(40))')" : ""
            guard route.fileServer == nil, let path = route.pagePath else {
                return Self.finding(
                    "this respond answers every error\(text) before file_server runs: visitors never get the page", at: context.location(of: respond[0]),
                    notes: [
                        .init("the page's file_server, which never runs", at: context.location(of: fileServer)),
                        Self.fix("remove the respond, or give it a matcher (respond @api \"…\") so only those requests get the text"),
                    ])
            }
            return Self.finding(
                "the page's own request ('\(path)') lands in the block of this respond, which answers it\(text): visitors never get the page",
                at: context.location(of: respond[0]),
                notes: [
                    .init("the page's file_server, in a block that request never reaches", at: context.location(of: fileServer)),
                    Self.fix(
                        "give the pages' block a matcher that takes their path (handle /errors/* { … }); handle blocks come before route blocks, the longest path first"
                    ),
                ])
        }
    }
}
