import DetourDiagnostics
import DetourProxyCore

/// A `std.fileread` of a page that is not there: it reads NULL, and visitors get the error's
/// status with no page (an empty body where `set beresp.body` takes it, the text `(null)`
/// where `synthetic()` writes it); `varnishd -C` says nothing. One finding per
/// `std.fileread`, with every code and file it misses.
struct VarnishMissingPageRule: VarnishRule {
    static let about = VarnishRules.missingFile

    func check(_ site: VarnishSite, in context: VarnishCheckContext) -> [Diagnostic] {
        var reads: [(route: ErrorPageRoute<VarnishSite.Route>, codes: [Int], files: [PageFile])] = []
        for (route, codes, files) in ErrorPageChecks.missingFiles(site.model) {
            if let index = reads.firstIndex(where: { $0.route.origin.readAt == route.origin.readAt }) {
                reads[index].codes += codes.filter { !reads[index].codes.contains($0) }
                reads[index].files += files.filter { !reads[index].files.contains($0) }
            } else {
                reads.append((route, codes, files))
            }
        }
        return reads.map { route, codes, files in
            let more = files.count > 1 ? " and \(files.count - 1) more" : ""
            return Self.finding(
                "std.fileread in \(route.origin.response.method) reads \(files[0].shown)\(more) for \(Self.codes(codes)), which \(files.count > 1 ? "do" : "does") not exist: visitors get the status without a page",
                at: route.origin.readAt,
                notes: [Self.fixMissingFile("install detour's public/errors/ where the path points")])
        }
    }
}
