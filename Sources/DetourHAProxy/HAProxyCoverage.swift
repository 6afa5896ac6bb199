import DetourProxyCore

/// Which page answers each code for visitors of a frontend or listen section: HAProxy looks in
/// the backend first, then the frontend.
enum HAProxyCoverage {
    /// The backends a proxy routes to (itself, for `listen`); names no section defines are left out.
    static func backends(of proxy: HAProxyProxy, in model: HAProxyModel) -> [HAProxyProxy] {
        model.routed[proxy.location] ?? routedBackends(of: proxy, in: model)
    }

    /// `backends(of:in:)` worked out, once per frontend, when the model is made.
    static func routedBackends(of proxy: HAProxyProxy, in model: HAProxyModel) -> [HAProxyProxy] {
        if proxy.kind == "listen" { return [proxy] }
        let names = ([proxy.settings.defaultBackend].compactMap { $0 } + proxy.settings.routes).map(\.backend)
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }.compactMap { model.backendsByName[$0].map { model.proxies[$0] } }
    }

    /// For each code, the page every route answers it with (the frontend's, or `backend pages`
    /// when each backend has its own), or nil when some route has none.
    static func answers(_ proxy: HAProxyProxy, in model: HAProxyModel, codes: [Int]) -> [(code: Int, answer: String?)] {
        let backends = backends(of: proxy, in: model)
        return codes.filter(HAProxyModel.customisable.contains).map { code in
            let own = proxy.settings.answer(for: code)
            let perBackend = backends.map { $0.settings.answer(for: code) ?? own }
            guard backends.isEmpty ? own != nil : perBackend.allSatisfy({ $0 != nil }) else { return (code, nil) }
            let shown = Set(perBackend.compactMap { $0 } + (backends.isEmpty ? [own!] : []))
            return (code, shown.count == 1 ? shown.first! : "\(shown.count) backend pages")
        }
    }
}
