import DetourDiagnostics

/// The server blocks of a configuration, each with the settings it inherits. `server` blocks
/// outside any `http` (a site file checked on its own) are read as if inside one; `stream`
/// and `mail` servers are not HTTP and are left out.
struct NginxConfigModel {
    let config: NginxConfig
    /// Each server block with the scope it inherits; they share nothing, so they are modelled
    /// and checked in parallel.
    let serverBlocks: [(directive: NginxDirective, inherited: NginxScope)]

    init(_ config: NginxConfig, diagnostics: inout [Diagnostic]) {
        self.config = config
        var blocks: [(NginxDirective, NginxScope)] = []
        let topScope = NginxScope()
        for directive in config.directives {
            switch directive.kind {
            case .http:
                var mapped = topScope
                mapped.mapValues = NginxVariables.literalMaps(in: directive)
                let httpScope = mapped.entering(directive, diagnostics: &diagnostics)
                blocks += directive.children.filter { $0.kind == .server && $0.isBlock }.map { ($0, httpScope) }
            case .server where directive.isBlock:
                blocks.append((directive, topScope))
            default:
                break
            }
        }
        serverBlocks = blocks
    }
}
