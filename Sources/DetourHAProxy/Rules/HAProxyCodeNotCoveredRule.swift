import DetourDiagnostics
import DetourProxyCore

/// A code detour made a page for that a frontend answers with HAProxy's built-in page: for a
/// backend's errors HAProxy looks in the backend first, then the frontend, so a code is covered
/// for a frontend only if every backend it routes to, or the frontend itself, has its page.
struct HAProxyCodeNotCoveredRule: HAProxyRule {
    static let about = HAProxyRules.codeNotCovered

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        context.sites.compactMap { site in
            let proxy = site.proxy
            let gaps = ErrorPageChecks.uncoveredCodes(site.model, pageCodes: context.pageCodes)
            guard !gaps.isEmpty else { return nil }
            let backends = model.backends(of: proxy).filter { !$0.isSection(proxy) }.map { "'\($0.name)'" }
            let through = backends.isEmpty ? "" : ", and neither \(backends.count == 1 ? "has backend" : "have backends") \(backends.joined(separator: ", "))"
            return Self.finding(
                "\(proxy.kind) '\(proxy.name)' has no page for \(Self.codes(gaps))\(through): visitors get HAProxy's built-in page",
                at: proxy.location,
                notes: [
                    Self.fix(
                        "base it on detour's defaults ('\(proxy.kind) \(proxy.name) from detour', snippets/haproxy.cfg), or add 'errorfile <code> <install path>/errors/<code>.http'"
                    )
                ], codes: gaps)
        }
    }
}
