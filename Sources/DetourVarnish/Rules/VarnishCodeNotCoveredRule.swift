import DetourDiagnostics
import DetourProxyCore

/// A code Varnish raises that the VCL leaves to the built-in VCL's page (or to no body): the
/// "Guru Meditation" page, unbranded and in English.
struct VarnishCodeNotCoveredRule: VarnishRule {
    static let about = VarnishRules.codeNotCovered

    func check(_ site: VarnishSite, in context: VarnishCheckContext) -> [Diagnostic] {
        // One finding per place, with every cause and code that ends there.
        var found: [(at: SourceLocation, response: VarnishResponse, causes: [String], codes: [Int])] = []
        for code in ErrorPageChecks.uncoveredCodes(site.model, pageCodes: context.pageCodes) {
            guard let response = site.responses.first(where: { $0.code == code && $0.isBuiltinOrEmpty && !$0.path.dependsOnRequest }) else { continue }
            let at = Self.location(of: response, in: site)
            if let index = found.firstIndex(where: { $0.at == at && $0.response.method == response.method }) {
                if !found[index].causes.contains(Self.cause(response)) { found[index].causes.append(Self.cause(response)) }
                found[index].codes.append(code)
            } else {
                found.append((at, response, [Self.cause(response)], [code]))
            }
        }
        return found.map { at, response, causes, codes in
            let what = response.path.body == nil ? "an empty body" : "Varnish's built-in 'Guru Meditation' page"
            let object = response.method == "vcl_synth" ? "resp" : "beresp"
            return Self.finding(
                "\(Self.list(causes)) \(causes.count > 1 ? "end" : "ends") in \(response.method) with \(what): visitors get it for \(Self.codes(codes)), not detour's page",
                at: at,
                notes: [
                    Self.fix(
                        "include detour's snippets/varnish.vcl after 'vcl 4.1;' and the backends, or in \(response.method) set \(object).body = std.fileread(\"/usr/share/detour/errors/\" + \(object).status + \".html\") and return (deliver)"
                    )
                ])
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
        }
    }

    /// The return that raises it where the VCL writes one, else the method's first definition,
    /// else the VCL's first line.
    private static func location(of response: VarnishResponse, in site: VarnishSite) -> SourceLocation {
        switch response.cause {
        case .backendError(let at), .synth(let at): if at.path != VCLConfig.builtinPath { return at }
        case .abandonedFetch(let at?): if at.path != VCLConfig.builtinPath { return at }
        default: break
        }
        return site.firstDefinition(of: response.method) ?? site.location
    }
}
