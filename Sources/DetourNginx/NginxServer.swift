import DetourDiagnostics
import DetourSupport

/// A `server` block: its names, effective settings and locations.
final class NginxServer: Sendable {
    /// Keeps the configuration that this server's directives point into.
    let config: NginxConfig
    let directive: NginxDirective
    let scope: NginxScope
    let inherited: NginxScope
    let locations: [NginxLocation]
    /// Every location, nested ones included, depth first.
    let allLocations: [NginxLocation]

    init(directive: NginxDirective, in config: NginxConfig, inherited: NginxScope, diagnostics: inout [Diagnostic]) {
        self.config = config
        self.directive = directive
        self.inherited = inherited
        scope = inherited.entering(directive, diagnostics: &diagnostics)
        let ownScope = scope
        locations = directive.children.filter { $0.kind == .location }.map {
            NginxLocation(directive: $0, inherited: ownScope, diagnostics: &diagnostics)
        }
        allLocations = locations.flatMap(\.allLocations)
    }

    /// The server-level `return` every request meets (no `rewrite`, `if` or `break` before it):
    /// nothing after the server's rewrite phase runs, so only the statuses of reading a request
    /// (`requestReadingStatuses`) and its own code can reach visitors.
    var returnForEveryRequest: NginxDirective? {
        for child in directive.children {
            if child.kind == .return { return child }
            if ["if", "rewrite", "break"].contains(child.name) { return nil }
        }
        return nil
    }

    /// What nginx answers while reading a request, before a server's rewrite phase: a bad
    /// request (a header too large included), one too slow, a URI too long.
    static let requestReadingStatuses: Set<Int> = [400, 408, 414]

    /// `example.com` (or `_` / the listen address when nameless), for the coverage table.
    var displayName: String {
        if let name = directive.children.first(where: { $0.kind == .serverName })?.firstValue { return name }
        if let listen = directive.children.first(where: { $0.kind == .listen })?.firstValue { return "listen \(listen)" }
        return "server"
    }

    /// Whether anything here can make nginx answer a 5xx (`findServerErrorSource`): asked by
    /// a rule and by the coverage table, so it is worked out once.
    var mayAnswerServerError: Bool { serverErrorSource.value { findServerErrorSource() } }
    private let serverErrorSource = Memo<Bool>()

    var definesErrorPages: Bool { directive.children.contains { $0.kind == .errorPage } }

    /// The page every request that meets `code` gets: the server's own; else the one the
    /// catch-all `location /` gives, when every other location a visitor's request can select
    /// gives a page for `code` too (the pages' own locations aside: they serve files).
    /// A 5xx needs a page only where nginx can raise one: when nothing at the server's own level
    /// can, the page every location that can fail gives is enough (a server whose only failing
    /// location is `location /api/` sets its pages there; an `auth_request` service's location
    /// is not one of them).
    func pageForEveryRequest(_ code: Int, pageLocations: [NginxLocation]) -> NginxErrorPage? {
        if let page = scope.page(for: code) { return page }
        if code >= 500, !mayAnswerServerErrorEverywhere {
            // An auth service's failure reaches visitors as the 500 of the location that asked it.
            let failing = allLocations.filter { location in
                !pageLocations.contains { $0 === location } && !isAuthService(location) && mayAnswerServerError(in: location)
            }
            if let first = failing.first, let page = first.scope.page(for: code), failing.allSatisfy({ $0.scope.page(for: code) != nil }) {
                return page
            }
        }
        guard let catchAll = locations.first(where: { ($0.match == .prefix || $0.match == .preferredPrefix) && $0.pattern == "/" }),
            let page = catchAll.scope.page(for: code)
        else { return nil }
        let selectable = allLocations.filter { location in
            !location.isInternal && location.match != .named && !pageLocations.contains { $0 === location }
        }
        return selectable.allSatisfy { $0.scope.page(for: code) != nil } ? page : nil
    }

    /// Whether `page` is for only the statuses authentication raises (401, 403), in effect
    /// somewhere `auth_request` or `auth_basic` is (where it is written, or a location that
    /// inherits it): a sign-in flow (nginx-ldap-auth, Authelia) that answers a visitor who has
    /// not signed in with the sign-in form, often from the auth service itself. Not an error
    /// page, so the error-page rules leave it alone.
    func isSignIn(_ page: NginxErrorPage) -> Bool {
        guard page.codes.allSatisfy({ $0 == 401 || $0 == 403 }) else { return false }
        let usesIt = { (level: NginxScope) in
            (level.authRequest != nil || level.authBasic != nil) && level.errorPagesLevel?.children.contains(page.directive) == true
        }
        return usesIt(scope) || allLocations.contains { usesIt($0.scope) }
    }

    /// The locations `auth_request` subrequests go to: their answers never reach visitors.
    /// Asked by several rules for every server, so worked out once.
    var authServiceLocations: [NginxLocation] { authServices.value { findAuthServiceLocations() } }
    private let authServices = Memo<[NginxLocation]>()

    /// Whether `location` is one `auth_request` subrequests go to.
    func isAuthService(_ location: NginxLocation) -> Bool { authServiceLocations.contains { $0 === location } }

    private func findAuthServiceLocations() -> [NginxLocation] {
        var uris: [String] = []
        if let uri = scope.authRequest?.firstValue { uris.append(uri) }
        for location in allLocations {
            if let uri = location.scope.authRequest?.firstValue, !uris.contains(uri) { uris.append(uri) }
        }
        return uris.compactMap { location(for: $0) }
    }

    /// Whether `guardDirective` (`deny`, `auth_basic`, `auth_request`) stands before every
    /// request the server takes: it is in effect for the server itself and in every location a
    /// request can select. Whoever meets an error there has passed it, and their credentials
    /// carry over nginx's internal redirect to the page.
    func guardsEveryone(_ guardDirective: NginxDirective) -> Bool {
        guard scope.protections.contains(guardDirective) else { return false }
        return allLocations.allSatisfy { location in
            location.isInternal || location.match == .named || location.scope.protections.contains(guardDirective)
        }
    }

    /// Whether `guardDirective`, standing before the location serving a page for `codes`,
    /// keeps that page from the visitors who meet those codes: always, unless it guards
    /// everyone (`guardsEveryone`) and none of `codes` is its own refusal. The page for its own
    /// refusal (a password's 401, `deny`'s 403) goes to visitors who have not passed it, and
    /// nginx runs the same guard again for the page's request: they get its built-in page.
    func keepsPage(behind guardDirective: NginxDirective, for codes: [Int]) -> Bool {
        !guardsEveryone(guardDirective) || !Self.refusals(of: guardDirective).isDisjoint(with: codes)
    }

    /// The statuses a guard refuses a request with: `deny`'s 403, a password's 401, and an
    /// `auth_request` service's 401 or 403.
    static func refusals(of guardDirective: NginxDirective) -> Set<Int> {
        switch guardDirective.name {
        case "deny": [403]
        case "auth_request": [401, 403]
        default: [401]
        }
    }

    /// Whether anything can send a request to `location`: every other one can be selected, a
    /// named one only where a directive of the server or of its http block names it
    /// (`error_page 502 @rescue`, `try_files $uri @app`).
    func isReachable(_ location: NginxLocation) -> Bool {
        location.match != .named || namedReferences.value { findNamedReferences() }.contains(location.pattern)
    }
    private let namedReferences = Memo<Set<String>>()

    private func findNamedReferences() -> Set<String> {
        var names = Set(inherited.errorPages.map(\.target).filter { $0.hasPrefix("@") })
        let at = UInt8(ascii: "@")
        // The server's directives at every depth lie in one run of entries. Each is asked for an
        // '@' in its written arguments with one scan; only then are its words read: a string for
        // every value of every directive was most of a 5,000-server check's time here.
        for index in directive.children.range {
            let next = NginxDirective(view: directive.view, index: index)
            // A location's own name is not a way in.
            guard next.kind != .location, next.arguments(mayContain: at) else { continue }
            for position in 0..<next.argumentCount where next.word(position + 1, contains: at) {
                if let value = next.value(at: position), value.hasPrefix("@") { names.insert(value) }
            }
        }
        return names
    }

    func namedLocation(_ name: String) -> NginxLocation? {
        locations.first { $0.match == .named && $0.pattern == name }
    }

    /// The location nginx picks for `uri`: an exact match; else the longest prefix, searched
    /// again inside it; a `^~` prefix stops there; else the first matching regex, those nested
    /// in the chosen prefix first; else the longest prefix.
    func location(for uri: String) -> NginxLocation? {
        Self.find(uri, in: locations)
    }

    private static func find(_ uri: String, in locations: [NginxLocation]) -> NginxLocation? {
        if let exact = locations.first(where: { $0.match == .exact && $0.pattern == uri }) { return exact }
        var prefix: NginxLocation?
        for location in locations where location.match == .prefix || location.match == .preferredPrefix {
            if uri.hasPrefix(location.pattern), location.pattern.utf8.count > prefix?.pattern.utf8.count ?? -1 { prefix = location }
        }
        var chosen = prefix
        if let prefix {
            if let nested = find(uri, in: prefix.children) { chosen = nested }
            if prefix.match == .preferredPrefix { return chosen }
            if let nested = chosen, nested !== prefix, case .regex = nested.match { return nested }
        }
        if let regex = locations.first(where: { if case .regex = $0.match { return $0.matches(uri) } else { return false } }) {
            return regex
        }
        return chosen
    }
}
