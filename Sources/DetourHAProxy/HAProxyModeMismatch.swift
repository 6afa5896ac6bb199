import DetourDiagnostics

/// An HTTP frontend whose `default_backend` or `use_backend` names a backend in `mode tcp`:
/// HAProxy refuses the file once it has read it, for each frontend in order, its default
/// backend first, then its rules. (A tcp frontend may hand its stream to an HTTP backend: it
/// is upgraded.)
enum HAProxyModeMismatch {
    static func refusals(in proxies: [HAProxyProxy], backendsByName: [String: Int]) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for proxy in proxies where proxy.takesRequests && proxy.settings.mode == "http" {
            let uses =
                (proxy.settings.defaultBackend.map { [($0, "as its default backend")] } ?? []) + proxy.settings.routes.map { ($0, "in a 'use_backend' rule") }
            for (route, use) in uses {
                guard let index = backendsByName[route.backend], proxies[index].settings.mode == "tcp" else { continue }
                let backend = proxies[index]
                let noun = proxy.kind == "listen" ? "http proxy" : "http frontend"
                found.append(
                    .error(
                        HAProxyRules.syntax.id,
                        "\(noun) '\(proxy.name)' (\(proxy.location.path):\(proxy.location.line)) tries to use incompatible tcp backend '\(backend.name)' (\(backend.location.path):\(backend.location.line)) \(use) (see 'mode'): HAProxy refuses the file",
                        at: proxy.location))
            }
        }
        return found
    }
}
