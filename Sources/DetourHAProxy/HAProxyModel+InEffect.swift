import DetourDiagnostics

extension HAProxyModel {
    /// The `errorfile`, `http-error` and `errorloc` lines that answer some visitor: for each
    /// frontend and each backend it routes to, HAProxy looks for the code's answer in the
    /// backend first (its own line or its defaults'), then in the frontend; a frontend that
    /// routes nowhere answers with its own. A line shadowed everywhere answers nobody.
    func answersInEffect() -> Set<SourceLocation> {
        var found = Set<SourceLocation>()
        func add(_ settings: HAProxySettings, _ code: Int) {
            if let page = settings.page(for: code) {
                found.insert(page.line)
            } else if let redirect = settings.errorRedirects[code] {
                found.insert(redirect.line)
            }
        }
        for entry in httpEntries {
            let backends = backends(of: entry)
            let codes = Set(entry.settings.errorFiles.keys).union(entry.settings.httpErrors.keys).union(entry.settings.errorRedirects.keys)
            // The codes some backend leaves to the frontend, found in one pass over them.
            var leftToFrontend = backends.isEmpty ? codes : []
            for index in backends.indices where leftToFrontend.count < codes.count {
                for code in codes where !backends[index].settings.answers(code) { leftToFrontend.insert(code) }
            }
            for code in leftToFrontend { add(entry.settings, code) }
            for index in backends.indices {
                let settings = backends[index].settings
                for code in settings.errorFiles.keys { add(settings, code) }
                for code in settings.httpErrors.keys { add(settings, code) }
                for code in settings.errorRedirects.keys { add(settings, code) }
            }
        }
        return found
    }
}
