import DetourDiagnostics
import DetourProxyCore

/// A code Varnish raises that the VCL leaves to the built-in VCL's page (or to no body): the
/// "Guru Meditation" page, unbranded and in English.
struct VarnishCodeNotCoveredRule: VarnishRule {
    static let about = VarnishRules.codeNotCovered

    func check(_ site: VarnishSite, in context: VarnishCheckContext) -> [Diagnostic] {
        // One finding per place, with every way and code that ends there.
        var found: [(at: SourceLocation, ways: [Way], codes: [Int])] = []
        // Each way to Varnish's own page is a place to fix: a dead backend's, an abandoned
        // fetch's, each synth the VCL returns.
        for code in ErrorPageChecks.uncoveredCodes(site.model, pageCodes: context.pageCodes) {
            for response in site.responses where response.code == code && response.isBuiltinOrEmpty && !response.path.dependsOnRequest {
                let at = site.notCoveredPlace(of: response)
                let way = Way(method: response.method, empty: response.path.body == nil, causes: [Self.cause(response)])
                guard let index = found.firstIndex(where: { $0.at == at }) else {
                    found.append((at, [way], [code]))
                    continue
                }
                if !found[index].codes.contains(code) { found[index].codes.append(code) }
                if let same = found[index].ways.firstIndex(where: { $0.method == way.method && $0.empty == way.empty }) {
                    if !found[index].ways[same].causes.contains(way.causes[0]) { found[index].ways[same].causes += way.causes }
                } else {
                    found[index].ways.append(way)
                }
            }
        }
        return found.map { at, ways, codes in
            let fixes = Set(ways.map(\.method)).sorted().map { method in
                let object = method == "vcl_synth" ? "resp" : "beresp"
                return "in \(method) set \(object).body = std.fileread(\"/usr/share/detour/errors/\" + \(object).status + \".html\") and return (deliver)"
            }
            return Self.finding(
                "\(ways.map(\.words).joined(separator: "; ")): visitors get it for \(Self.codes(codes)), not detour's page", at: at,
                notes: [Self.fix("include detour's snippets/varnish.vcl after 'vcl 4.1;' and the backends, or " + fixes.joined(separator: ", and "))],
                codes: codes)
        }
    }

    /// The causes that end in one method with one kind of body.
    private struct Way {
        var method: String
        var empty: Bool
        var causes: [String]

        var words: String {
            let what = empty ? "an empty body" : "Varnish's built-in 'Guru Meditation' page"
            return "\(list(causes)) \(causes.count > 1 ? "end" : "ends") in \(method) with \(what)"
        }
    }

    private static func list(_ items: [String]) -> String {
        items.count > 1 ? items.dropLast().joined(separator: ", ") + " and " + items.last! : items[0]
    }

    private static func cause(_ response: VarnishResponse) -> String {
        switch response.cause {
        case .deadBackend: return "a dead backend (503)"
        case .backendStatus: return "the backend's own 5xx"
        case .backendError(let at):
            return at.path == VCLConfig.builtinPath ? "the built-in VCL's return (error(\(response.code)))" : "this return (error(\(response.code)))"
        case .synth(let at):
            return at.path == VCLConfig.builtinPath ? "the built-in VCL's return (synth(\(response.code)))" : "this return (synth(\(response.code)))"
        case .abandonedFetch: return "an abandoned fetch (503)"
        case .brokenOff: return "a backend that breaks its answer off (503)"
        }
    }
}
