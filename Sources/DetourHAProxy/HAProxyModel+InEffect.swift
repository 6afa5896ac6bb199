import DetourDiagnostics

extension HAProxyModel {
    /// The `errorfile`, `http-error` and `errorloc` lines that answer some visitor: for each
    /// frontend and each backend it routes to, HAProxy looks for the code's answer in the
    /// backend first (its own line or its defaults'), then in the frontend; a frontend that
    /// routes nowhere answers with its own. A line shadowed everywhere answers nobody, and so
    /// does one only a frontend that answers every request itself would reach.
    func answersInEffect() -> Set<SourceLocation> {
        var found = Set<SourceLocation>()
        // Thousands of backends hold the same few pages of their defaults: each page's line
        // is hashed once, the rest known by the page itself.
        var seenPages = Set<ObjectIdentifier>()
        func add(_ proxy: HAProxyProxy, _ code: Int) {
            if let page = proxy.settings.page(for: code) {
                if seenPages.insert(ObjectIdentifier(page)).inserted { found.insert(page.line) }
            } else if let redirect = proxy.settings.errorRedirects[code] {
                found.insert(redirect.line)
            }
        }
        // A frontend that answers every request itself sends no visitor on, and meets no error.
        for entry in httpEntries where entry.settings.answersEveryRequest == nil {
            let backends = backends(of: entry)
            let codes = Set(entry.settings.errorFiles.keys).union(entry.settings.httpErrors.keys).union(entry.settings.errorRedirects.keys)
            // The codes some backend leaves to the frontend, found in one pass over them.
            var leftToFrontend = backends.isEmpty ? codes : []
            for index in backends.indices where leftToFrontend.count < codes.count {
                for code in codes where !backends[index].settings.answers(code) { leftToFrontend.insert(code) }
            }
            for code in leftToFrontend { add(entry, code) }
            for backend in backends {
                for code in backend.settings.errorFiles.keys { add(backend, code) }
                for code in backend.settings.httpErrors.keys { add(backend, code) }
                for code in backend.settings.errorRedirects.keys { add(backend, code) }
            }
        }
        return found
    }
}
