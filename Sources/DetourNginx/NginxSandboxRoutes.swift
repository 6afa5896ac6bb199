import DetourDiagnostics
import DetourProxyCore
import Foundation

/// How `detour verify nginx` reads a route from `detour check`'s model of a server: where a
/// request for a path ends up, which upstream and error pages that place has, a path a
/// regular-expression location is reached by, and the headers its pages go out without.
extension NginxSandboxPlanner {
    /// A route to probe at `path`, written at `place`: where its requests end up, read from
    /// the server's model (without one, `passing`: the location's own `proxy_pass`), says which
    /// upstream its failures are and which codes it has pages for.
    static func route(_ path: String, at place: SourceLocation, in server: NginxServer?, passing: NginxDirective?) -> SandboxPlan.Route {
        guard let server else { return .init(path: path, location: place, upstreamLocation: passing?.location) }
        var destination = Self.destination(of: path, in: server)
        // A location that passes on only what it has no file for (`if (!-f $request_filename)`):
        // the probes ask for no file, so they meet its block.
        if let found = destination, found.upstreamPass == nil, let block = server.missingFileDestination(of: found, for: path) { destination = block }
        var route = SandboxPlan.Route(
            path: path, location: place, upstreamLocation: destination?.upstreamPass?.directive.location ?? passing?.location,
            pageLines: Self.pageLines((destination?.scope ?? server.scope).errorPages))
        if let destination, let pass = destination.upstreamPass, destination.scope.intercepts[pass.module] != nil {
            route.intercepting = NginxRules.interceptedCodeWithoutPage.id
        }
        if let searched = server.searchedLocation(for: path)?.location { route.passThroughByMethod = Self.passesByMethod(searched) }
        // The codes its location's own `error_page` lines drop from those it inherits: what
        // nginx raises there for them (an access rule's 403, a password's 401) gets no page.
        if let destination, destination.definesErrorPages, destination.match != .condition, let first = destination.scope.errorPages.first {
            let dropped = DroppedInheritedPagesRule.droppedCodes(destination)
            if !dropped.isEmpty { route.droppedPages = (first.directive.location, dropped, NginxRules.inheritedErrorPageDropped.id) }
        }
        return route
    }

    /// By method, the `proxy_pass` of an `if` on the request's method inside `location` that a
    /// request by it reaches (`if ($request_method = POST) { proxy_pass …; }`): the last `if`
    /// that holds is the one whose settings nginx serves with.
    static func passesByMethod(_ location: NginxLocation) -> [String: SourceLocation] {
        var places: [String: SourceLocation] = [:]
        for method in SandboxPlan.probedMethods {
            for branch in location.children where branch.match == .condition {
                guard let condition = NginxCondition(branch.directive), condition.holds(forMethod: method) == true else { continue }
                places[method] = branch.upstreamPass?.directive.location
            }
        }
        return places
    }

    /// What nginx logs when an `error_page` of `server` sends a code to a named location the
    /// server does not have: it answers a plain 500, which the log alone tells apart.
    static func undefinedNamedLocations(_ server: NginxServer) -> [SandboxPlan.LogSignature] {
        let pages = server.scope.errorPages + server.allLocations.filter { $0.definesErrorPages }.flatMap { $0.scope.errorPages }
        return pages.filter { $0.isNamedLocation && server.namedLocation($0.target) == nil }.map { page in
            SandboxPlan.LogSignature(
                parts: ["could not find named location \"\(page.target)\""], rule: NginxRules.errorPageUndefinedNamedLocation.id,
                message:
                    "named location '\(page.target)' is not defined in this server: nginx answered 500 where \(page.codes.map(String.init).joined(separator: ", ")) occurred",
                location: page.directive.location)
        }
    }

    /// Each code's `error_page` line; the first that names it, as nginx takes it.
    static func pageLines(_ pages: [NginxErrorPage]) -> [Int: SourceLocation] {
        var lines: [Int: SourceLocation] = [:]
        for page in pages {
            for code in page.codes where lines[code] == nil { lines[code] = page.directive.location }
        }
        return lines
    }

    /// The location a request for `path` ends up in: the one nginx settles on after the
    /// `rewrite` lines that start the search again (`NginxServer.searchedLocation`), or where
    /// its `try_files` falls back to (a named location, or a URI's location: `/index.php$is_args$args`).
    static func destination(of path: String, in server: NginxServer) -> NginxLocation? {
        guard let (path, location) = server.searchedLocation(for: path) else { return nil }
        guard location.upstreamPass == nil else { return location }
        return server.tryFilesFallback(of: location, for: path) ?? location
    }

    /// A path the regular expression of `directive` matches and nginx routes to it (no earlier
    /// expression, exact or `^~` location takes it first), written as nginx reads it: no `//`,
    /// no `.` or `..` segment, nothing a request line would have to escape.
    static func regexPath(to directive: NginxDirective, in server: NginxServer, under prefix: String) -> String? {
        guard let target = server.allLocations.first(where: { $0.directive == directive }), case .regex = target.match else { return nil }
        for sample in RegexSample.candidates(target.pattern) {
            let start = prefix.hasSuffix("/") ? prefix : prefix + "/"
            for path in [sample, start + "a" + sample, start + sample, sample + "a", start + sample + "a"] where RegexSample.isPlainPath(path) {
                if server.location(for: path) === target { return path }
            }
        }
        return nil
    }

    /// For each server-level `if` on the request's path (`$uri`, `$request_uri`) that returns a
    /// code the server names a page URI for, a route its pattern matches: nginx runs that `if`
    /// again for the redirect to the page, and the answer shows whether the page got through.
    static func serverConditionRoutes(_ children: [NginxDirective], server: NginxServer) -> [SandboxPlan.Route] {
        var routes: [SandboxPlan.Route] = []
        for directive in children where directive.kind == .if {
            guard let condition = NginxCondition(directive), condition.words.count == 3, ["$uri", "$request_uri"].contains(condition.words[0]),
                ["~", "~*"].contains(condition.words[1]),
                let code = directive.children.first(where: { $0.kind == .return })?.firstValue.flatMap({ Int($0) }), code >= 400,
                let page = server.scope.page(for: code), !page.isNamedLocation, !page.hasVariables,
                let regex = NginxRegex.compile(condition.words[2], caseless: condition.words[1] == "~*")
            else { continue }
            let matching = RegexSample.candidates(condition.words[2]).lazy.flatMap { sample in [sample, sample + "a", "/" + sample, "/a" + sample] }.first {
                path in
                RegexSample.isPlainPath(path) && regex.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
            }
            guard let path = matching else { continue }
            var route = SandboxPlan.Route(path: path, location: directive.location)
            route.rerunPages = (directive.location, [code], NginxRules.errorPageServerRewrite.id)
            routes.append(route)
        }
        return routes
    }

    /// The `add_header` lines without `always` in effect where the server's error pages (its
    /// own and its locations', by URI) are served from files, internal locations included.
    static func successHeaders(_ server: NginxServer) -> [(name: String, location: SourceLocation, rule: String)] {
        var found: [(name: String, location: SourceLocation, rule: String)] = []
        let pages = server.scope.errorPages + server.allLocations.flatMap { $0.definesErrorPages ? $0.scope.errorPages : [] }
        for page in pages where page.target.hasPrefix("/") && !page.target.contains("$") {
            // A page a location proxies or returns is not served from a file there.
            let location = server.location(for: page.target)
            if let location, location.upstreamPass != nil || location.returnDirective != nil { continue }
            let scope = location?.scope ?? server.scope
            for header in scope.addHeaders where header.lastValue != "always" && !found.contains(where: { $0.location == header.location }) {
                if let name = header.firstValue { found.append((name.lowercased(), header.location, NginxRules.addHeaderWithoutAlways.id)) }
            }
        }
        return found
    }
}
