import DetourDiagnostics
import DetourProxyCore

/// The paths a Caddy site's lines route by, for `detour verify` to ask: `/` (answered by the
/// site's catch-all proxy, if any), then each `handle`, `handle_path`, `route` and
/// `reverse_proxy`/`php_fastcgi` with a path or a named matcher whose `path` it knows, nested
/// blocks included, each with the proxy line that answers it; for `php_fastcgi`, a script's
/// path (`index.php`), which it passes on whether or not the site has the file.
struct CaddySandboxRoutes {
    let config: CaddyConfig
    let site: SourceLocation
    private(set) var routes: [SandboxPlan.Route] = []
    private(set) var notProbed: [(location: SourceLocation, reason: String)] = []
    /// The site's first proxy without `handle_response`: as `detour check` has it, the one
    /// place its upstreams' own errors pass through (the fix is the same for each).
    private(set) var firstPassingProxy: SourceLocation?
    /// Where each `handle_errors` that sends files names them (its `rewrite` to the page, else
    /// its `root`, else its `file_server`): the line a page Caddy does not find is named at, as
    /// `detour check` names it.
    private(set) var errorPageLines: [SourceLocation] = []
    /// The `file_server` of each `handle_errors` with no `root` in it or in the site: it reads
    /// the folder Caddy is started in, which the sandbox does not know.
    private(set) var errorPagesWithoutRoot: [SourceLocation] = []
    /// Whether the site sets `root` outside its `handle_errors`, which its error routes keep.
    private var siteHasRoot = false
    /// Each proxy inside a `handle_errors` (where it is used) with the upstreams it names.
    private var errorPageProxies: [(location: SourceLocation, upstreams: Set<String>)] = []
    /// The upstreams the site's other proxies name.
    private var siteUpstreams: Set<String> = []
    /// `@name path /api/*`: a path each named matcher matches.
    private var matcherPaths: [String: String] = [:]
    static let proxies: Set<String> = ["reverse_proxy", "php_fastcgi"]
    static let routing: Set<String> = ["handle", "handle_path", "route"]

    init(config: CaddyConfig, site: SourceLocation) {
        self.config = config
        self.site = site
    }

    /// A path matcher as a path a request can have: `/api/*` → `/api/detour-probe`.
    static func concrete(_ pattern: String) -> String {
        let path = pattern.replacingOccurrences(of: "*", with: "detour-probe")
        return path.hasPrefix("/") ? path : "/" + path
    }

    mutating func collect(_ lines: [CaddyLine]) {
        for line in lines { readMatcher(line) }
        siteHasRoot = lines.contains { $0.first?.text == "root" }
        let catchAll = Self.catchAllProxy(in: lines)
        routes.append(.init(path: "/", location: site, upstreamLocation: catchAll.map { written($0[0]) }, responseLocation: response(of: catchAll)))
        walk(lines)
    }

    /// Where a route is used (the `import` that brought it).
    private func location(_ token: CaddyToken) -> SourceLocation { token.placeOfUse(in: config.files) }

    /// Where a proxy line is written (in a snippet, not at each import): the line to change.
    private func written(_ token: CaddyToken) -> SourceLocation { token.location(in: config.files) }

    private mutating func readMatcher(_ line: CaddyLine) {
        guard let name = line.first?.text, name.hasPrefix("@"), line.count >= 2 else { return }
        let words = line.count >= 3 && line[1].text == "{" ? Array(line.dropFirst(2)) : Array(line.dropFirst())
        guard
            let path = words.firstIndex(where: { $0.text == "path" }).flatMap({ words.indices.contains($0 + 1) ? words[$0 + 1].text : nil })
                ?? (words.first?.text.hasPrefix("/") == true ? words.first?.text : nil)
        else { return }
        matcherPaths[name] = path
    }

    private enum Matcher {
        /// None written: every request the block gets.
        case none
        case path(String)
        /// One whose paths are not read here (a regular expression, a header, a named matcher
        /// without `path`).
        case other(String)
    }

    /// What a line's matcher selects: a path written, or a named matcher's.
    private func matcher(_ line: CaddyLine) -> Matcher {
        guard line.count >= 2, line[1].text != "{" else { return .none }
        let matcher = line[1].text
        if matcher.hasPrefix("/") { return .path(matcher) }
        if matcher.hasPrefix("@") { return matcherPaths[matcher].map(Matcher.path) ?? .other(matcher) }
        return line[0].text == "reverse_proxy" || line[0].text == "php_fastcgi" || matcher == "*" ? .none : .other(matcher)
    }

    private mutating func walk(_ lines: [CaddyLine]) {
        for line in lines {
            guard let name = line.first?.text else { continue }
            if Self.proxies.contains(name) {
                siteUpstreams.formUnion(Self.upstreams(of: line))
                if firstPassingProxy == nil, response(of: line) == nil { firstPassingProxy = written(line[0]) }
                switch matcher(line) {
                case .path(let path):
                    add(path, at: line[0], upstream: line)
                    // php_fastcgi passes a script whether or not the site has it: one is asked for.
                    if name == "php_fastcgi", path.hasSuffix("*") { add(String(path.dropLast()) + "index.php", at: line[0], upstream: line) }
                case .other(let matcher): notProbed.append((location(line[0]), "\(name) \(matcher): no path is derived from this matcher yet"))
                case .none:
                    // Its other paths reach it only through files the site has (`try_files`).
                    if name == "php_fastcgi" { add("/index.php", at: line[0], upstream: line) }
                }
            } else if name == "handle_errors" {
                let inner = CaddyDirectiveCheck.block(inside: line).lines
                let naming = ["rewrite", "root", "file_server"].lazy.compactMap { name in inner.first { $0.first?.text == name } }.first
                if let server = inner.first(where: { $0.first?.text == "file_server" }), let naming {
                    if siteHasRoot || inner.contains(where: { $0.first?.text == "root" }) {
                        errorPageLines.append(written(naming[0]))
                    } else {
                        errorPagesWithoutRoot.append(written(server[0]))
                    }
                }
                for proxy in Self.proxyLines(in: inner) { errorPageProxies.append((location(proxy[0]), Self.upstreams(of: proxy))) }
            } else if Self.routing.contains(name) {
                let inner = CaddyDirectiveCheck.block(inside: line).lines
                for nested in inner { readMatcher(nested) }
                switch matcher(line) {
                case .path(let path): add(path, at: line[0], upstream: Self.catchAllProxy(in: inner))
                case .other(let matcher):
                    notProbed.append((location(line[0]), "\(name) \(matcher): no path is derived from this matcher yet"))
                    continue
                case .none: break
                }
                walk(inner)
            }
        }
    }

    private mutating func add(_ path: String, at token: CaddyToken, upstream: CaddyLine?) {
        let concrete = Self.concrete(path)
        guard !routes.contains(where: { $0.path == concrete }) else { return }
        routes.append(
            .init(path: concrete, location: location(token), upstreamLocation: upstream.map { written($0[0]) }, responseLocation: response(of: upstream)))
    }

    /// The proxies inside `handle_errors` that fetch the page from an upstream the site's
    /// requests go to: the one that has just failed.
    var errorPagesFromTheSiteUpstream: [SourceLocation] {
        errorPageProxies.filter { !$0.upstreams.isDisjoint(with: siteUpstreams) }.map(\.location)
    }

    /// The proxy lines among `lines`, those in routing blocks included.
    private static func proxyLines(in lines: [CaddyLine]) -> [CaddyLine] {
        lines.flatMap { line -> [CaddyLine] in
            guard let name = line.first?.text else { return [] }
            if proxies.contains(name) { return [line] }
            return routing.contains(name) ? proxyLines(in: CaddyDirectiveCheck.block(inside: line).lines) : []
        }
    }

    /// The upstream addresses a proxy line names (`reverse_proxy @api http://app:8080 app2:8080 {`),
    /// without their scheme.
    private static func upstreams(of line: CaddyLine) -> Set<String> {
        var addresses: Set<String> = []
        for token in line.dropFirst() {
            let text = token.text
            if text == "{" { break }
            if text.hasPrefix("@") || text.hasPrefix("/") || text == "*" { continue }
            addresses.insert(text.range(of: "://").map { String(text[$0.upperBound...]) } ?? text)
        }
        return addresses
    }

    /// The line of a proxy's `handle_response` that answers instead of the upstream (its
    /// `file_server` or `respond`, else the `handle_response` itself).
    private func response(of proxy: CaddyLine?) -> SourceLocation? {
        guard let proxy else { return nil }
        for line in CaddyDirectiveCheck.block(inside: proxy).lines where line.first?.text == "handle_response" {
            let answering = CaddyDirectiveCheck.block(inside: line).lines.first { ["file_server", "respond"].contains($0.first?.text ?? "") }
            return written(answering?[0] ?? line[0])
        }
        return nil
    }

    /// The proxy that answers what nothing more specific takes: one without a matcher, at
    /// this level or in a `handle` without one.
    private static func catchAllProxy(in lines: [CaddyLine]) -> CaddyLine? {
        for line in lines {
            guard let name = line.first?.text, line.count < 2 || line[1].text == "{" || !(line[1].text.hasPrefix("/") || line[1].text.hasPrefix("@")) else {
                continue
            }
            if proxies.contains(name) { return line }
            if routing.contains(name), let inner = catchAllProxy(in: CaddyDirectiveCheck.block(inside: line).lines) { return inner }
        }
        return nil
    }
}
