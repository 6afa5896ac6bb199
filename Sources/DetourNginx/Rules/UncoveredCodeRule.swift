import DetourDiagnostics
import DetourProxyCore

/// 11. A status detour made a page for has no `error_page` in a server, nor in the catch-all
/// `location /` and every other location visitors reach: visitors there see nginx's default page.
/// 5xx codes count only where something can fail (an upstream, a limit, a module's handler):
/// a server that only redirects or serves files never answers one.
struct UncoveredCodeRule: NginxRule {
    static let about = NginxRules.codeNotCovered

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        let missing = ErrorPageChecks.uncoveredCodes(facts.site, pageCodes: context.pageCodes)
        guard !missing.isEmpty else { return [] }
        return [
            Self.finding(
                "\(Self.codes(missing)) \(missing.count == 1 ? "has" : "have") a generated page but no error_page in server '\(server.displayName)': visitors see nginx's default page",
                at: server.directive.location,
                notes: [
                    Self.fix("include detour's nginx snippet (public/snippets/nginx.conf) in this server")
                ], codes: missing)
        ]
    }
}
