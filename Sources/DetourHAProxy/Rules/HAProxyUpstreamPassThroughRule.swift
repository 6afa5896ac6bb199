import DetourDiagnostics
import DetourProxyCore

/// A backend whose servers' own 5xx reach visitors as the application wrote them: errorfile
/// and http-error cover only HAProxy's own errors; a backend's are replaced only by
/// `http-response return … if { status N }`, in the backend or in every frontend that routes
/// to it (with a file, or `default-errorfiles`: the errorfile in effect); an unconditional
/// `http-response set-status` gives them all another status.
struct HAProxyUpstreamPassThroughRule: HAProxyRule {
    static let about = HAProxyRules.upstreamPassThrough
    static let replaced = [500, 502, 503, 504]

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        let codes = Self.replaced.filter(context.pageCodes.contains)
        guard !codes.isEmpty else { return [] }
        // By backend (its section's identity), the codes some frontend that routes to it
        // leaves to it, one bit per code, and a bit for being routed to at all: a frontend's own
        // rules run on its backends' responses too. Thousands of backends each hold a byte,
        // not a list of frontends keyed by a hashed place.
        let routed: UInt8 = 1 << 7
        var leftBy: [ObjectIdentifier: UInt8] = [:]
        leftBy.reserveCapacity(model.proxies.count)
        for entry in model.proxies where entry.takesRequests && entry.kind != "listen" {
            // A frontend that answers every request itself sends no visitor on.
            if entry.settings.answersEveryRequest != nil { continue }
            var leaves = routed
            for (bit, code) in codes.enumerated() where entry.settings.passes(code) { leaves |= 1 << bit }
            for backend in model.backends(of: entry) { leftBy[ObjectIdentifier(backend), default: 0] |= leaves }
        }
        // A backend no frontend sends visitors to is reached only where some frontend builds a
        // backend's name per request (`use_backend %[…]`): asked once, and only then.
        lazy var namedPerRequest = model.proxies.contains { entry in
            entry.takesRequests && entry.kind != "listen"
                && (entry.settings.defaultBackend?.isDynamic == true || entry.settings.routes.contains(where: \.isDynamic))
        }
        return model.proxies.filter { $0.isBackend && $0.settings.mode == "http" && $0.settings.servers > 0 }.compactMap { proxy in
            // A status passes where a frontend that routes here leaves it, as the backend does.
            let left = leftBy[ObjectIdentifier(proxy)] ?? 0
            if proxy.settings.answersEveryRequest != nil { return nil }
            if proxy.kind == "backend", left & routed == 0, !namedPerRequest { return nil }
            let passed = codes.enumerated().filter { bit, code in proxy.settings.passes(code) && (left & routed == 0 || left & (1 << bit) != 0) }.map(\.element)
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
