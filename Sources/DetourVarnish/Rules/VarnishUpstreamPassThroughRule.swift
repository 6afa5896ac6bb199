import DetourDiagnostics
import DetourProxyCore

/// The backend's own 5xx delivered as the backend wrote it. One finding, the codes listed: the
/// fix is the same for each.
struct VarnishUpstreamPassThroughRule: VarnishRule {
    static let about = VarnishRules.upstreamPassThrough

    func check(_ site: VarnishSite, in context: VarnishCheckContext) -> [Diagnostic] {
        let codes = Set(site.passed.map(\.code))
        guard !codes.isEmpty else { return [] }
        return [
            Self.finding(
                "vcl_backend_response delivers the backend's own \(Self.codes(codes)) as it is: visitors get the application's error body, not detour's page",
                at: site.passThroughPlace,
                notes: [
                    Self.fix("in vcl_backend_response, 'if (beresp.status >= 500) { return (error(beresp.status)); }' (detour's snippets/varnish.vcl does it)")
                ])
        ]
    }
}
