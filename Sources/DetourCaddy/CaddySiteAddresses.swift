import DetourDiagnostics

/// Two site blocks with one address, as Caddy compares them once the environment is read in
/// (`localhost:{$PORT_A}` and `localhost:{$PORT_B}` with neither set are both `localhost:`):
/// Caddy cannot tell which one serves it and refuses the file, naming no line
/// (httpcaddyfile's "ambiguous site definition"). Each repeat is named at its block.
enum CaddySiteAddresses {
    static func ambiguous(_ config: CaddyConfig) -> [Diagnostic] {
        var first: [String: Int] = [:]
        var found: [Diagnostic] = []
        for (index, block) in config.sites.enumerated() {
            for key in block.keys {
                if let earlier = first[key.text], earlier != index {
                    found.append(.error(CaddyRules.directive.id, "ambiguous site definition: \(key.text)", at: key.location(in: config.files)))
                } else {
                    first[key.text] = first[key.text] ?? index
                }
            }
        }
        return found
    }
}
