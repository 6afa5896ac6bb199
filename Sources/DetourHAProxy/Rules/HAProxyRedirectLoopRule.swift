import DetourDiagnostics
import DetourProxyCore

/// `http-request redirect location /errors/503.html if app_down` sends visitors to the page, and
/// the page's own request meets the same rule: while the backend is down, it is redirected to
/// itself again and again, and browsers give up with "too many redirects".
struct HAProxyRedirectLoopRule: HAProxyRule {
    static let about = HAProxyRules.redirectLoop

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for entry in model.httpEntries {
            var router = HAProxyPageRouter(entry, in: model)
            // The frontend's own redirects, and a backend's for the pages routed back to it.
            var candidates = entry.settings.pageRedirects.map { ($0, entry) }
            for backend in model.backends(of: entry) where !backend.isSection(entry) {
                candidates += backend.settings.pageRedirects.map { ($0, backend) }
            }
            for (redirect, owner) in candidates where redirect.isLocal {
                if !owner.isSection(entry) {
                    guard router.route(redirect.path)?.backend.isSection(owner) == true else { continue }
                }
                guard HAProxyPathCondition.evaluate(redirect.condition, path: redirect.path, acls: owner.settings.acls).outcome != .no else { continue }
                let condition = redirect.condition.isEmpty ? "every request" : "'\(redirect.condition.joined(separator: " "))'"
                found.append(
                    Self.finding(
                        "http-request redirect in \(owner.kind) '\(owner.name)' sends visitors to '\(redirect.path)', and its condition (\(condition)) holds for that page's own request too: it is redirected to itself again and again",
                        at: redirect.line,
                        notes: [
                            Self.fix(
                                "leave the page out of the condition ('!{ path_beg \(redirect.folder) }'), or answer with 'http-request return status 503 … file <page>' (detour's snippets/haproxy.cfg), which keeps the status"
                            )
                        ]))
            }
        }
        return found
    }
}
