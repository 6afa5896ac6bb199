import DetourDiagnostics
import DetourProxyCore

/// 8. `=200` (or any 2xx/3xx) on an error, or `=` on a static page: crawlers and monitors
/// see success while the site is failing. A sign-in page (`error_page 401 =200 /login;`
/// under `auth_request`) answers with 200 on purpose.
struct SoftErrorStatusRule: NginxRule {
    static let about = NginxRules.softStatus

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        ErrorPageChecks.softStatuses(facts.site).map { route, sent in
            let errors = route.codes.filter { $0 >= 400 }
            guard sent.construct == "=" else {
                return Self.finding(
                    "'\(sent.construct)' turns \(Self.codes(errors)) into \(sent.status): crawlers and monitors see success while the site fails",
                    at: sent.at,
                    notes: [
                        Self.fix("drop '\(sent.construct)' so visitors get the real status with the page")
                    ])
            }
            return Self.finding(
                "'=' takes the status of the page's own response, 200 for a static file: \(Self.codes(errors)) would be sent as 200", at: sent.at,
                notes: [
                    Self.fix("drop '=' so visitors get the real status with the page")
                ])
        }
    }
}
