import DetourDiagnostics
import DetourProxyCore

/// A page that answers an error with success: `file_server` in a `handle_response` without
/// `status {rp.status_code}` (Caddy sends the file with 200), or a `respond` with a 2xx status
/// in `handle_errors` or `handle_response`.
struct CaddySoftStatusRule: CaddyRule {
    static let about = CaddyRules.softStatus

    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic] {
        ErrorPageChecks.softStatuses(site.model).map { route, sent in
            let block = if case .errors = route.origin { "handle_errors" } else { "handle_response" }
            guard sent.construct == "respond" else {
                return Self.finding(
                    "file_server in handle_response sends the page with 200, not the upstream's error status: crawlers and monitors see success while the site fails",
                    at: sent.at,
                    notes: [
                        Self.fix("file_server { status {rp.status_code} }, or 'error \"upstream error\" {rp.status_code}' here and the page in handle_errors")
                    ])
            }
            return Self.finding(
                "respond in \(block) answers the error with \(sent.status): crawlers and monitors see success while the site fails", at: sent.at,
                notes: [
                    Self.fix(
                        block == "handle_errors"
                            ? "leave the status out ('respond \"…\"' keeps the error's) or write {err.status_code}" : "write {rp.status_code} as the status")
                ])
        }
    }
}
