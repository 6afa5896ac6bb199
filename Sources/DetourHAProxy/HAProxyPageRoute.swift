import DetourDiagnostics

/// Where a page's own request goes: the backend a frontend routes the page's path to (decided
/// by `HAProxyPageRouter`). A redirected visitor's second request is routed like any other, so
/// the page is answered, or refused, by that backend.
struct HAProxyPageRoute: Sendable {
    var backend: HAProxyProxy
    /// The `use_backend` or `default_backend` line that sends it there; nil for a `listen`
    /// section that keeps it.
    var line: SourceLocation?

    /// The route to the line's backend; nil for a name built per request or one no section has.
    static func named(_ route: HAProxyRoute, in model: HAProxyModel) -> HAProxyPageRoute? {
        guard !route.isDynamic, let index = model.backendsByName[route.backend] else { return nil }
        return HAProxyPageRoute(backend: model.proxies[index], line: route.line)
    }
}
