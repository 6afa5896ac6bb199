import DetourDiagnostics

/// The checks every server shares, decided on the neutral model. Each gives the facts of its
/// findings; the dialect's rule words them in its server's terms, with its own rule id.
public enum ErrorPageChecks {
    /// Routes that send a file that is not there, with the codes and the (distinct) files. Not
    /// where a guard refuses every visitor the page: the refusal comes first, and is what they
    /// get (its own finding).
    @inlinable public static func missingFiles<Origin>(_ site: ErrorPageSite<Origin>) -> [(route: ErrorPageRoute<Origin>, codes: [Int], files: [PageFile])] {
        // Filtered lazily: a route is copied only when it has a missing file.
        missingFiles(site.routes.lazy.filter { route in !route.guards.contains { !$0.selectsRequests } })
    }

    /// The same for routes that stand outside any site (the pages HAProxy opens at start).
    @inlinable public static func missingFiles<Origin>(_ routes: some Sequence<ErrorPageRoute<Origin>>) -> [(
        route: ErrorPageRoute<Origin>, codes: [Int], files: [PageFile]
    )] {
        routes.compactMap { route in
            var codes: [Int] = []
            var files: [PageFile] = []
            for (fileCodes, file) in route.files where !file.exists {
                codes += fileCodes.filter { !codes.contains($0) }
                if !files.contains(file) { files.append(file) }
            }
            return codes.isEmpty ? nil : (route, codes.sorted(), files)
        }
    }

    /// Codes detour made a page for (`pageCodes`) that nothing in the site answers.
    @inlinable public static func uncoveredCodes<Origin>(_ site: ErrorPageSite<Origin>, pageCodes: [Int]) -> [Int] {
        site.coverage.answers.filter { $0.answer == nil && pageCodes.contains($0.code) }.map(\.code)
    }

    /// Routes whose page is fetched from the upstream: when it is down, the page fails too. Not
    /// where a guard refuses every visitor the page first (its own finding).
    @inlinable public static func proxiedPages<Origin>(_ site: ErrorPageSite<Origin>) -> [(route: ErrorPageRoute<Origin>, upstream: SourceLocation)] {
        site.routes.compactMap { route in
            guard let upstream = route.upstream, !route.isSignIn, !route.guards.contains(where: { !$0.selectsRequests }) else { return nil }
            return (route, upstream)
        }
    }

    /// Error pages sent with a success status: crawlers and monitors see the site working. Not
    /// where a guard refuses every visitor the page, or its file is missing: they get that
    /// refusal or a 404, not the success (each its own finding; the status is seen once it goes).
    /// A page fetched from the upstream is not sent for its 504: asked of the upstream that did
    /// not answer in time, it waits as long, and visitors get the server's own page (the proxied
    /// page's finding); an upstream that sends an error for one path still answers another.
    @inlinable public static func softStatuses<Origin>(_ site: ErrorPageSite<Origin>) -> [(
        route: ErrorPageRoute<Origin>, status: ErrorPageRoute<Origin>.SuccessStatus
    )] {
        site.routes.flatMap { route -> [(ErrorPageRoute<Origin>, ErrorPageRoute<Origin>.SuccessStatus)] in
            // Most routes send no success status: asked first, before the route is copied.
            let successes = route.successStatuses.filter { $0.status < 400 }
            guard !successes.isEmpty, !route.isSignIn, !route.guards.contains(where: { !$0.selectsRequests }),
                route.files.isEmpty || route.files.contains(where: { $0.file.exists })
            else { return [] }
            var sent = route
            if route.upstream != nil {
                sent.codes.removeAll { $0 == 504 }
                guard sent.codes.contains(where: { $0 >= 400 }) else { return [] }
            }
            return successes.map { (sent, $0) }
        }
    }

    /// Pages not every visitor gets: each guard on a route, with the codes it keeps from them;
    /// then each code whose every route selects requests, under the first such route's guard.
    @inlinable public static func protectedPages<Origin>(_ site: ErrorPageSite<Origin>) -> [(
        route: ErrorPageRoute<Origin>, guard: ErrorPageRoute<Origin>.PageGuard, codes: [Int]
    )] {
        guard site.routes.contains(where: { !$0.guards.isEmpty }) else { return [] }
        var found: [(route: ErrorPageRoute<Origin>, guard: ErrorPageRoute<Origin>.PageGuard, codes: [Int])] = []
        for route in site.routes {
            for stand in route.guards where !stand.selectsRequests { found.append((route, stand, route.codes)) }
        }
        var selected: [(route: ErrorPageRoute<Origin>, guard: ErrorPageRoute<Origin>.PageGuard, codes: [Int])] = []
        let codes = site.routes.flatMap(\.codes).reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }.sorted()
        for code in codes {
            let answering = site.routes.filter { $0.codes.contains(code) }
            let selecting = answering.map { $0.guards.first(where: \.selectsRequests) }
            guard let first = selecting.first, let stand = first, selecting.allSatisfy({ $0 != nil }) else { continue }
            if let at = selected.firstIndex(where: { $0.guard.at == stand.at }) {
                selected[at].codes.append(code)
            } else {
                selected.append((answering[0], stand, [code]))
            }
        }
        return found + selected
    }
}
