import DetourDiagnostics
import DetourProxyCore

/// The backend's own 5xx delivered as the backend wrote it: by vcl_backend_response, or because
/// vcl_recv pipes every request, or at each pipe some page requests reach. One finding per
/// place, the codes listed: the fix is the same for each.
struct VarnishUpstreamPassThroughRule: VarnishRule {
    static let about = VarnishRules.upstreamPassThrough

    func check(_ site: VarnishSite, in context: VarnishCheckContext) -> [Diagnostic] {
        // What a pipe hands over unread: the backend's 5xx detour has pages for.
        let pipedCodes = context.pageCodes.filter { $0 >= 500 }
        if site.pipedAt != nil {
            guard !pipedCodes.isEmpty else { return [] }
            return [
                Self.finding(
                    "vcl_recv pipes every request it does not answer itself: visitors get the backend's own \(Self.codes(pipedCodes)) as it is, and nothing at all when it is down (the connection closes)",
                    at: site.passThroughPlace,
                    notes: [
                        Self.fix(
                            "pipe only what must bypass the cache (websockets), and 'return (pass);' for the rest, so vcl_backend_error and vcl_backend_response see the backend's failures"
                        )
                    ])
            ]
        }
        let piped =
            pipedCodes.isEmpty
            ? []
            : site.pipes.map { at in
                Self.finding(
                    "this return (pipe) hands the requests that reach it to the backend: visitors get its own \(Self.codes(pipedCodes)) there as it is, and nothing at all when it is down (the connection closes)",
                    at: at,
                    notes: [
                        Self.fix(
                            "'return (pass);' where the answer must not be cached (a download, an export), so vcl_backend_error and vcl_backend_response see the backend's failures; pipe only websockets"
                        )
                    ])
            }
        let codes = Set(site.passed.map(\.code))
        guard !codes.isEmpty else { return piped }
        return piped + [
            Self.finding(
                "vcl_backend_response delivers the backend's own \(Self.codes(codes)) as it is: visitors get the application's error body, not detour's page",
                at: site.passThroughPlace,
                notes: [
                    Self.fix("in vcl_backend_response, 'if (beresp.status >= 500) { return (error(beresp.status)); }' (detour's snippets/varnish.vcl does it)")
                ])
        ]
    }
}
