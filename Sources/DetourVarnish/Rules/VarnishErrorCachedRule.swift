import DetourDiagnostics
import DetourProxyCore

/// A 5xx that stays in the cache: Varnish keeps nothing of a 5xx on its own (its TTL starts
/// below zero), but a VCL that sets beresp.ttl above zero on the way keeps it for everyone.
/// One finding per such `set`, with every code that passes it.
struct VarnishErrorCachedRule: VarnishRule {
    static let about = VarnishRules.errorCached

    func check(_ site: VarnishSite, in context: VarnishCheckContext) -> [Diagnostic] {
        var backend: [(at: SourceLocation, codes: [Int])] = []
        var pages: [(at: SourceLocation, codes: [Int])] = []
        let kept = { (path: VCLPath) -> SourceLocation? in
            guard let ttl = path.ttl, ttl.keeps, !path.uncacheable, ttl.at.path != VCLConfig.builtinPath else { return nil }
            return ttl.at
        }
        for passed in site.passed where passed.path.action == "deliver" {
            if let at = kept(passed.path) { Self.add(passed.code, at: at, to: &backend) }
        }
        for response in site.responses where response.method == "vcl_backend_error" {
            if let at = kept(response.path) { Self.add(response.status, at: at, to: &pages) }
        }
        return backend.map { at, codes in
            Self.finding(
                "this beresp.ttl keeps the backend's own \(Self.codes(codes)) in the cache: every visitor gets it until it expires, even once the backend is back",
                at: at, notes: [Self.fix("set the TTL only 'if (beresp.status < 500)', or set beresp.uncacheable = true for 5xx")])
        }
            + pages.map { at, codes in
                Self.finding(
                    "this beresp.ttl keeps vcl_backend_error's \(Self.codes(codes)) page in the cache: every visitor gets it, in the first one's language, until it expires",
                    at: at, notes: [Self.fix("set beresp.uncacheable = true and a short beresp.ttl in vcl_backend_error")])
            }
    }

    private static func add(_ code: Int, at: SourceLocation, to list: inout [(at: SourceLocation, codes: [Int])]) {
        if let index = list.firstIndex(where: { $0.at == at }) {
            if !list[index].codes.contains(code) { list[index].codes.append(code) }
        } else {
            list.append((at, [code]))
        }
    }
}
