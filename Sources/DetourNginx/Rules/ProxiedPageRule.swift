import DetourDiagnostics
import DetourProxyCore

/// 6. The page's URI falls into a proxied location: the page is fetched from the upstream
/// that just failed.
struct ProxiedPageRule: NginxRule {
    static let about = NginxRules.proxied

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        ErrorPageChecks.proxiedPages(facts.site).compactMap { route, upstream in
            guard case .uri(let uri, let location?, let file) = route.origin.target else { return nil }
            let page = route.origin.page
            var notes: [Diagnostic.Note] = [.init("the request for the page goes here", at: upstream)]
            if let hint = MissingPageFileRule.filePathHint(uri, page) { notes.append(hint) }
            notes.append(Self.fix("serve the pages from their own 'location ^~ \(Self.folder(of: uri)) { internal; root …; }'"))
            if let pass = location.upstreamPass {
                return Self.finding(
                    "error page '\(uri)' falls into \(location.description), which hands it to the upstream (\(pass.directive.name)): when the upstream is down the page fails too",
                    at: page.targetLocation, notes: notes)
            }
            // The file is missing, and the location hands a missing file to the upstream.
            guard let file, let pass = context.upstreamForMissing(file, uri, location, in: server) else { return nil }
            return Self.finding(
                "error page '\(uri)' resolves to \(file.shown), which does not exist, and \(location.description) hands a missing file to the upstream (\(pass.name)): the page is fetched from the upstream and fails with it",
                at: page.targetLocation, notes: notes)
        }
    }

    static func folder(of uri: String) -> String {
        guard let slash = uri.lastIndex(of: "/"), slash != uri.startIndex else { return "/errors/" }
        return String(uri[...slash])
    }
}
