import DetourDiagnostics
import DetourProxyCore

/// A code detour made a page for that a frontend answers with HAProxy's built-in page: for a
/// backend's errors HAProxy looks in the backend first, then the frontend, so a code is covered
/// for a frontend only if every backend it routes to, or the frontend itself, has its page.
struct HAProxyCodeNotCoveredRule: HAProxyRule {
    static let about = HAProxyRules.codeNotCovered

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        model.proxies.indices.compactMap { index in
            let proxy = model.proxies[index]
            guard let gaps = context.answers[index]?.filter({ $0.answer == nil }) else { return nil }
            guard !gaps.isEmpty else { return nil }
            let backends = HAProxyCoverage.backends(of: proxy, in: model).filter { !$0.isSection(proxy) }.map { "'\($0.name)'" }
            let through = backends.isEmpty ? "" : ", and neither \(backends.count == 1 ? "has backend" : "have backends") \(backends.joined(separator: ", "))"
            return .warning(
                Self.id, "\(proxy.kind) '\(proxy.name)' has no page for \(Self.codes(gaps.map(\.code)))\(through): visitors get HAProxy's built-in page",
                at: proxy.location,
                notes: [
                    Self.fix(
                        "base it on detour's defaults ('\(proxy.kind) \(proxy.name) from detour', snippets/haproxy.cfg), or add 'errorfile <code> <install path>/errors/<code>.http'"
                    )
                ])
        }
    }
}
