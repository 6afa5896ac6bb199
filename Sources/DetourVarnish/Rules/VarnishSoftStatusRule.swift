import DetourDiagnostics
import DetourProxyCore

/// An error page sent with a success status: one finding per place that sets it, with the
/// codes whose page it turns.
struct VarnishSoftStatusRule: VarnishRule {
    static let about = VarnishRules.softStatus

    func check(_ site: VarnishSite, in context: VarnishCheckContext) -> [Diagnostic] {
        var found: [(status: ErrorPageRoute<VarnishSite.Route>.SuccessStatus, method: String, codes: [Int])] = []
        for (route, status) in ErrorPageChecks.softStatuses(site.model) {
            if let index = found.firstIndex(where: { $0.status.at == status.at && $0.status.status == status.status }) {
                found[index].codes += route.codes.filter { !found[index].codes.contains($0) }
            } else {
                found.append((status, route.origin.response.method, route.codes))
            }
        }
        return found.map { status, method, codes in
            Self.finding(
                "the page for \(Self.codes(codes)) goes out with status \(status.status) from \(method): crawlers and monitors see a working page",
                at: status.at,
                notes: [Self.fix("leave the status as it is; set only the body and headers")])
        }
    }
}
