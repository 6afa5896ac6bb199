import DetourDiagnostics
import DetourProxyCore

/// What every rule works from besides its server: the codes detour made pages for, the
/// page files through the path maps, and where a server's error pages lead. Shared by the
/// threads checking servers.
final class NginxCheckContext: Sendable {
    /// Statuses with a generated page in the pages folder, sorted.
    let pageCodes: [Int]
    let pageFiles: PageFileLookup
    /// Where nginx looks for a relative `root` (Debian's nginx prefix).
    static let nginxPrefix = "/usr/share/nginx/"

    init(pageCodes: [Int], maps: [PagePathMap]) {
        self.pageCodes = pageCodes
        pageFiles = PageFileLookup(maps: maps)
    }

    /// Every error page in effect in `server` with where it leads, the static locations that
    /// serve them, and the server in neutral terms.
    func facts(for server: NginxServer) -> NginxServerFacts {
        let pages = errorPages(in: server).map { ($0, target(of: $0, in: server)) }
        var order: [ObjectIdentifier] = []
        var byLocation: [ObjectIdentifier: (NginxLocation, [String])] = [:]
        for (_, target) in pages {
            guard case .uri(let uri, let location?, let file?) = target, upstreamForMissing(file, uri, location, in: server) == nil else { continue }
            let key = ObjectIdentifier(location)
            if byLocation[key] == nil {
                order.append(key)
                byLocation[key] = (location, [])
            }
            if byLocation[key]?.1.contains(uri) == false { byLocation[key]?.1.append(uri) }
        }
        let serving = order.compactMap { byLocation[$0] }
        let routes = pages.map { route(for: $0.0, $0.1, in: server) }
        let coverage = coverage(of: server, pages: pages, pageLocations: serving.map(\.0))
        return NginxServerFacts(servingLocations: serving, site: ErrorPageSite(coverage: coverage, routes: routes))
    }

    /// One error page in neutral terms: its file, whether its URI goes to the upstream, what
    /// guards the location serving it, and the success status `=200` or `=` (on a static file) sends it with.
    private func route(for page: NginxErrorPage, _ target: NginxPageTarget, in server: NginxServer) -> ErrorPageRoute<NginxPageOrigin> {
        var route = ErrorPageRoute(origin: NginxPageOrigin(page: page, target: target), codes: page.codes, isSignIn: server.isSignIn(page))
        if case .uri(let uri, let location, let file) = target {
            if let file, let location, let pass = upstreamForMissing(file, uri, location, in: server) {
                // The file is not there, and the location hands what it lacks to the upstream.
                route.upstream = pass.location
                return route
            }
            if let file { route.files = [(page.codes, file)] }
            route.upstream = location?.upstreamPass?.directive.location
            // A static location serving the page behind deny or auth.
            if file != nil, let guardDirective = location?.scope.protections.first(where: { server.keepsPage(behind: $0, for: page.codes) }) {
                route.guards = [.init(at: guardDirective.location)]
            }
        }
        guard page.codes.contains(where: { $0 >= 400 }) else { return route }
        // Where `=` or `=code` is written.
        var written: SourceLocation { page.directive.arguments.first { $0.value.hasPrefix("=") }?.location ?? page.directive.location }
        switch page.statusOverride {
        case .status(let status) where status < 400: route.successStatuses = [.init(status: status, construct: "=\(status)", at: written)]
        case .fromTarget:
            if case .uri(_, _, _?) = target { route.successStatuses = [.init(status: 200, construct: "=", at: written)] }
        case .status, .none: break
        }
        return route
    }

    /// The upstream a page's request meets when its file is missing and its location hands
    /// what it lacks on (`try_files … @app`, `if (!-f $request_filename) { proxy_pass … }`).
    func upstreamForMissing(_ file: PageFile, _ uri: String, _ location: NginxLocation, in server: NginxServer) -> NginxDirective? {
        file.exists ? nil : server.upstreamForMissingFile(in: location, for: uri)
    }

    /// Which file answers each code in `server`: the page every request gets, or nil.
    private func coverage(of server: NginxServer, pages: [(NginxErrorPage, NginxPageTarget)], pageLocations: [NginxLocation]) -> SiteCoverage {
        let codes = pageCodes.isEmpty ? server.scope.coveredCodes.sorted() : pageCodes
        // Labelled as SiteCoverage keeps them: an unlabelled array is cast element by element.
        let answers = codes.map { code -> (code: Int, answer: String?) in
            guard let page = server.pageForEveryRequest(code, pageLocations: pageLocations) else {
                if let answer = server.returnForEveryRequest, !NginxServer.requestReadingStatuses.contains(code),
                    answer.firstValue != String(code)
                {
                    return (code, "not needed: every request meets 'return \(answer.values.joined(separator: " "))' at line \(answer.location.line)")
                }
                return (code, code < 500 || server.mayAnswerServerError ? nil : "not needed: nothing here answers 5xx")
            }
            let target = pages.first { $0.0.directive == page.directive && $0.0.target == page.target }?.1 ?? self.target(of: page, in: server)
            switch target {
            case .named(let name, let location): return (code, location == nil ? "\(name) (undefined)" : name)
            case .dynamic: return (code, page.target + " (dynamic)")
            case .uri(let uri, let location, let file):
                if let file { return (code, file.exists ? file.localPath : "\(file.localPath) (missing)") }
                if let pass = location?.upstreamPass { return (code, "\(uri) via \(pass.directive.name) (the upstream)") }
                return (code, uri)
            }
        }
        return SiteCoverage(name: server.displayName, location: server.directive.location, answers: answers)
    }

    /// Every `error_page` directive that matters in `server`, each once: those in effect at
    /// server level and those a location sets itself.
    private func errorPages(in server: NginxServer) -> [NginxErrorPage] {
        var pages = server.scope.errorPages
        for location in server.allLocations where location.definesErrorPages {
            pages += location.scope.errorPages
        }
        return pages
    }

    func target(of page: NginxErrorPage, in server: NginxServer) -> NginxPageTarget {
        if page.isNamedLocation { return .named(page.target, server.namedLocation(page.target)) }
        if page.hasVariables { return .dynamic }
        // Where the page's request settles: a location's `rewrite … last` sends it on, with
        // the URI the file is then looked for under.
        let path = page.path
        let (rewritten, location) = server.searchedLocation(for: path) ?? (path, nil)
        return .uri(path, location: location, file: file(for: rewritten, in: location, server: server))
    }

    /// The file a static location would send for `uri`; nil when it proxies or returns.
    private func file(for uri: String, in location: NginxLocation?, server: NginxServer) -> PageFile? {
        if let location, location.upstreamPass != nil || location.returnDirective != nil { return nil }
        var path: String
        // A regex location's captures ($1, $name) may build the path; other variables cannot
        // be known before a request comes. The regex runs again only for a path that needs it.
        func expanded(_ text: String) -> String? {
            guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
            return NginxVariables.expand(text, location?.captures(in: uri) ?? [:])
        }
        if let location, let alias = location.alias?.firstValue {
            switch location.match {
            case .exact: path = alias
            case .prefix, .preferredPrefix: path = alias + uri.dropFirst(location.pattern.count)
            case .regex:
                guard let built = expanded(alias) else { return nil }
                path = built
            case .named, .condition: return nil
            }
        } else {
            guard var root = expanded(location?.scope.root ?? server.scope.root) else { return nil }
            while root.utf8.count > 1, root.hasSuffix("/") { root.removeLast() }
            path = root + uri
        }
        if !path.hasPrefix("/") { path = Self.nginxPrefix + path }
        return pageFiles.file(path, uri: uri)
    }
}
