import DetourDiagnostics
import DetourProxyCore

/// A site that proxies without `ProxyErrorOverride On`: the upstream's own error pages reach
/// visitors as the application wrote them, and ErrorDocument covers only Apache's own errors.
struct ApacheUpstreamPassThroughRule: ApacheRule {
    static let about = ApacheRules.upstreamPassThrough

    func check(_ site: ApacheSite, in context: ApacheCheckContext) -> [Diagnostic] {
        let codes = context.pageCodes.filter { $0 >= 500 }
        let scope = site.scope
        guard let proxy = scope.firstProxy else { return [] }
        guard let override = scope.errorOverride else {
            return [
                Self.finding(
                    "\(site.name) proxies without 'ProxyErrorOverride On': the upstream's own error pages reach visitors", at: proxy,
                    notes: [
                        Self.fix(
                            "add 'ProxyErrorOverride On\(codes.isEmpty ? "" : " " + codes.map(String.init).joined(separator: " "))' (Apache 2.4.47+ takes the status list)"
                        )
                    ])
            ]
        }
        let passed = override.isEmpty ? [] : codes.filter { !override.contains($0) }
        guard !passed.isEmpty else { return [] }
        return [
            Self.finding(
                "\(site.name)'s ProxyErrorOverride leaves out \(Self.codes(passed)): the upstream's own pages for them reach visitors",
                at: scope.errorOverrideLocation ?? proxy,
                notes: [
                    Self.fix("add \(Self.codes(passed)) to its status list")
                ])
        ]
    }
}
