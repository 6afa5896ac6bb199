import DetourDiagnostics

/// A page that answers an error with success: `file_server` in a `handle_response` without
/// `status {rp.status_code}` (Caddy sends the file with 200), or a `respond` with a 2xx status
/// in `handle_errors` or `handle_response`.
struct CaddySoftStatusRule: CaddyRule {
    static let about = RuleDescription(
        "caddy.error-page-soft-status", .error,
        summary: "an error page is sent with a success status",
        consequence: "a 200 for an error: crawlers and monitors see success while the site fails"
    )

    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for handler in site.responseHandlers {
            for line in handler {
                if line.first?.text == "file_server", !line.contains(where: { $0.text == "status" && !$0.isQuoted }) {
                    found.append(.error(Self.id, "file_server in handle_response sends the page with 200, not the upstream's error status: crawlers and monitors see success while the site fails", at: context.location(of: line[0]), notes: [
                        Self.fix("file_server { status {rp.status_code} }, or 'error \"upstream error\" {rp.status_code}' here and the page in handle_errors"),
                    ]))
                }
                if let respond = Self.successfulRespond(line) { found.append(Self.finding(respond, "handle_response", context)) }
            }
        }
        for route in site.errorRoutes {
            for line in route.responds {
                if let respond = Self.successfulRespond(line) { found.append(Self.finding(respond, "handle_errors", context)) }
            }
        }
        return found
    }

    /// `respond … 2xx`: the status token when it is a success.
    private static func successfulRespond(_ line: [CaddyToken]) -> CaddyToken? {
        guard line.first?.text == "respond", line.count >= 2, let last = line.last, !last.isQuoted, let status = Int(last.text), (200...299).contains(status) else { return nil }
        return last
    }

    private static func finding(_ status: CaddyToken, _ block: String, _ context: CaddyCheckContext) -> Diagnostic {
        .error(id, "respond in \(block) answers the error with \(status.text): crawlers and monitors see success while the site fails", at: context.location(of: status), notes: [
            fix(block == "handle_errors" ? "leave the status out ('respond \"…\"' keeps the error's) or write {err.status_code}" : "write {rp.status_code} as the status"),
        ])
    }
}
