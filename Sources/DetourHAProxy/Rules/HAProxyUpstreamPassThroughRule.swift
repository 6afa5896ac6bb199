import DetourDiagnostics
import DetourProxyCore

/// A backend whose servers' own 5xx reach visitors as the application wrote them: errorfile
/// and http-error cover only HAProxy's own errors; a backend's are replaced only by
/// `http-response return … if { status N }`, in the backend or in every frontend that routes
/// to it (with a file, or `default-errorfiles`: the errorfile in effect).
struct HAProxyUpstreamPassThroughRule: HAProxyRule {
    static let about = HAProxyRules.upstreamPassThrough
    static let replaced = [500, 502, 503, 504]

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        let codes = Self.replaced.filter(context.pageCodes.contains)
        guard !codes.isEmpty else { return [] }
        // The frontends that route to each backend, by the backend's place: a frontend's own
        // rules run on its backends' responses too.
        var reachingBy: [SourceLocation: [HAProxyProxy]] = [:]
        for entry in model.proxies where entry.takesRequests && entry.kind != "listen" {
            for backend in model.backends(of: entry) { reachingBy[backend.location, default: []].append(entry) }
        }
        return model.proxies.filter { $0.isBackend && $0.settings.mode == "http" && $0.settings.servers > 0 }.compactMap { proxy in
            // A status passes where a frontend that routes here leaves it, as the backend does.
            let reaching = reachingBy[proxy.location] ?? []
            let passed = codes.filter { code in
                !proxy.settings.replacedStatuses.contains(code)
                    && (reaching.isEmpty || reaching.contains { !$0.settings.replacedStatuses.contains(code) })
            }
            guard !passed.isEmpty else { return nil }
            return Self.finding(
                "\(proxy.kind) '\(proxy.name)' passes its servers' own \(Self.codes(passed)) to visitors as they are: errorfile and http-error cover only HAProxy's own errors",
                at: proxy.location,
                notes: [
                    Self.fix(
                        "base it on detour's defaults ('backend \(proxy.name) from detour_backend', snippets/haproxy.cfg), or add 'http-response return status <code> content-type \"text/html; charset=utf-8\" file <install path>/errors/<code>.html if { status <code> }'"
                    )
                ])
        }
    }
}
