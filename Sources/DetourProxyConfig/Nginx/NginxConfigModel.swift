import DetourDiagnostics

/// The servers of a configuration with their effective settings. `server` blocks outside any
/// `http` (a site file checked on its own) are read as if inside one; `stream` and `mail`
/// servers are not HTTP and are left out.
struct NginxConfigModel {
    let servers: [NginxServer]

    init(_ directives: [ConfigDirective], diagnostics: inout [Diagnostic]) {
        var servers: [NginxServer] = []
        let topScope = NginxScope()
        for directive in directives {
            switch directive.name {
            case "http":
                let httpScope = topScope.entering(directive, diagnostics: &diagnostics)
                for child in directive.block ?? [] where child.name == "server" {
                    servers.append(NginxServer(directive: child, inherited: httpScope, diagnostics: &diagnostics))
                }
            case "server" where directive.block != nil:
                servers.append(NginxServer(directive: directive, inherited: topScope, diagnostics: &diagnostics))
            default:
                break
            }
        }
        self.servers = servers
    }
}
