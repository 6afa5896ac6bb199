import DetourDiagnostics

/// The servers of a configuration with their effective settings. `server` blocks outside any
/// `http` (a site file checked on its own) are read as if inside one; `stream` and `mail`
/// servers are not HTTP and are left out.
struct NginxConfigModel {
    let servers: [NginxServer]

    init(_ directives: [ConfigDirective], diagnostics: inout [Diagnostic]) {
        // Each server block with the scope it inherits; built in parallel, they share nothing.
        var blocks: [(ConfigDirective, NginxScope)] = []
        let topScope = NginxScope()
        for directive in directives {
            switch directive.name {
            case "http":
                let httpScope = topScope.entering(directive, diagnostics: &diagnostics)
                blocks += (directive.block ?? []).filter { $0.name == "server" }.map { ($0, httpScope) }
            case "server" where directive.block != nil:
                blocks.append((directive, topScope))
            default:
                break
            }
        }
        let built = blocks.concurrentMap { block, scope -> (NginxServer, [Diagnostic]) in
            var found: [Diagnostic] = []
            let server = NginxServer(directive: block, inherited: scope, diagnostics: &found)
            return (server, found)
        }
        servers = built.map(\.0)
        diagnostics += built.flatMap(\.1)
    }
}
