import DetourDiagnostics
import DetourProxyCore

/// Where `detour check varnish` names its findings about one way a request goes, so that
/// `detour verify varnish` names what the real varnishd showed at the same lines.
extension VarnishSite {
    /// A code left to Varnish's own page (or none): the return that raises it where the VCL
    /// writes one, else the method's first definition, else the VCL's first line.
    func notCoveredPlace(of response: VarnishResponse) -> SourceLocation {
        switch response.cause {
        case .backendError(let at), .synth(let at): if at.path != VCLConfig.builtinPath { return at }
        case .abandonedFetch(let at?): if at.path != VCLConfig.builtinPath { return at }
        default: break
        }
        return firstDefinition(of: response.method) ?? location
    }

    /// The backend's own errors delivered as they came: the VCL's return that delivers them
    /// (or pipes every request), else its vcl_backend_response, else its first line.
    var passThroughPlace: SourceLocation {
        let returnAt = passed.lazy.compactMap(\.path.returnAt).first { $0.path != VCLConfig.builtinPath }
        return returnAt ?? pipedAt ?? firstDefinition(of: "vcl_backend_response") ?? location
    }

    /// For a request that meets `trigger`, where each finding about its answer is named: the
    /// code not covered, the page file read, the success status set on the page.
    func places(for trigger: VarnishResponse.Trigger) -> [SharedCheck: SourceLocation] {
        var found: [SharedCheck: SourceLocation] = [:]
        for response in responses where response.trigger == trigger {
            if response.isBuiltinOrEmpty, found[.codeNotCovered] == nil { found[.codeNotCovered] = notCoveredPlace(of: response) }
            guard case .file(_, _, let at)? = response.path.body, response.path.action == "deliver" else { continue }
            if found[.missingFile] == nil { found[.missingFile] = at }
            if response.status < 400, found[.softStatus] == nil { found[.softStatus] = response.path.statusSetAt ?? at }
        }
        return found
    }
}
