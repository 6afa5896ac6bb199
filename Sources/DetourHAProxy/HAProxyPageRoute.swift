import DetourDiagnostics

/// Where a page's own request goes: the backend a frontend routes the page's path to, when the
/// path alone decides it. A redirected visitor's second request is routed like any other, so
/// the page is answered, or refused, by that backend.
struct HAProxyPageRoute: Sendable {
    var backend: HAProxyProxy
    /// The `use_backend` or `default_backend` line that sends it there; nil for a `listen`
    /// section that keeps it.
    var line: SourceLocation?

    /// The route of `path` through `proxy`, or nil when something besides the path decides it
    /// (a Host, a source address, a backend named per request) or the backend is not defined.
    static func decide(_ path: String, from proxy: HAProxyProxy, in model: HAProxyModel) -> HAProxyPageRoute? {
        for route in proxy.settings.routes {
            switch HAProxyPathCondition.evaluate(route.condition, path: path, acls: proxy.settings.acls).outcome {
            case .no: continue
            case .maybe: return nil
            case .yes: return named(route, in: model)
            }
        }
        if let fallback = proxy.settings.defaultBackend { return named(fallback, in: model) }
        return proxy.kind == "listen" ? HAProxyPageRoute(backend: proxy, line: nil) : nil
    }

    /// The route to the line's backend; nil for a name built per request or one no section has.
    static func named(_ route: HAProxyRoute, in model: HAProxyModel) -> HAProxyPageRoute? {
        guard !route.isDynamic, let index = model.backendsByName[route.backend] else { return nil }
        return HAProxyPageRoute(backend: model.proxies[index], line: route.line)
    }
}
