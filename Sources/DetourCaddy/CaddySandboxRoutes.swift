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
    /// Each `basicauth` a `handle_errors` sends the page's own request through on its way to
    /// a `file_server` or proxy: the refusal Caddy swallows there, answering the status with no
    /// body. With whether files answer behind it, and the upstreams that do.
    private var guards: [(location: SourceLocation, files: Bool, upstreams: Set<String>)] = []
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
                walkErrors(CaddyDirectiveCheck.block(inside: line).lines, path: nil, target: nil, root: nil)
            } else if Self.routing.contains(name) {
                let inner = CaddyDirectiveCheck.block(inside: line).lines
                for nested in inner { readMatcher(nested) }
                switch matcher(line) {
                case .path(let path): add(path, at: line[0], upstream: Self.catchAllProxy(in: inner))
                case .other(let matcher):
                    notProbed.append((location(line[0]), "\(name) \(matcher): no path is derived from this matcher yet"))
                    notePassingProxy(in: inner)
                    continue
                case .none: break
                }
                walk(inner)
            }
        }
    }

    /// The blocks of a `handle_errors` the page's own request reaches (`CaddyPagePath`: by the
    /// path its `rewrite` gives it, every block when that is unknown): each `file_server`, under
    /// the `rewrite` or `try_files` and the `root` met on the way (a block's own first), and
    /// each `basicauth` and proxy whose path matcher, if any, takes the page.
    private mutating func walkErrors(_ lines: [CaddyLine], path: String?, target: CaddyLine?, root: CaddyLine?) {
        let rewrite = lines.first { $0.first?.text == "rewrite" }
        var path = path
        if let rewrite, let last = rewrite.last, rewrite.count >= 2 { path = CaddyPagePath.written(last.text) }
        let target = rewrite ?? lines.first { $0.first?.text == "try_files" } ?? target
        let root = lines.first { $0.first?.text == "root" } ?? root
        let files = errorPageLines.count + errorPagesWithoutRoot.count
        let proxies = errorPageProxies.count
        if let server = lines.first(where: { $0.first?.text == "file_server" }) {
            if siteHasRoot || root != nil {
                errorPageLines.append(written((target ?? root ?? server)[0]))
            } else {
                errorPagesWithoutRoot.append(written(server[0]))
            }
        }
        for proxy in lines where Self.proxies.contains(proxy.first?.text ?? "") {
            if let path, proxy.count > 1, proxy[1].text.hasPrefix("/"), CaddyPagePath.matches(proxy[1].text, path) == false { continue }
            errorPageProxies.append((location(proxy[0]), Self.upstreams(of: proxy)))
        }
        for block in CaddyPagePath.taking(path, lines.filter { Self.routing.contains($0.first?.text ?? "") }) {
            var inner = path
            if let path, block[0].text == "handle_path", block.count > 1, block[1].text.hasPrefix("/") {
                inner = CaddyPagePath.strip(CaddyPagePath.strippedPrefix(of: block[1].text), from: path)
            }
            walkErrors(CaddyDirectiveCheck.block(inside: block).lines, path: inner, target: target, root: root)
        }
        // A password before nothing that answers is not what keeps the page away.
        let answeredByFiles = errorPageLines.count + errorPagesWithoutRoot.count > files
        guard answeredByFiles || errorPageProxies.count > proxies else { return }
        let upstreams = errorPageProxies[proxies...].reduce(into: Set<String>()) { $0.formUnion($1.upstreams) }
        for guarding in lines where ["basicauth", "basic_auth"].contains(guarding.first?.text ?? "") {
            if let path, guarding.count > 1, guarding[1].text.hasPrefix("/"), CaddyPagePath.matches(guarding[1].text, path) == false { continue }
            guards.append((written(guarding[0]), answeredByFiles, upstreams))
        }
    }

    private mutating func add(_ path: String, at token: CaddyToken, upstream: CaddyLine?) {
        let concrete = Self.concrete(path)
        guard !routes.contains(where: { $0.path == concrete }) else { return }
        routes.append(
            .init(path: concrete, location: location(token), upstreamLocation: upstream.map { written($0[0]) }, responseLocation: response(of: upstream)))
    }

    /// The `basicauth` lines on the page's way, and whether only the site's own upstream (the
    /// one that has just failed) answers behind them: the site then has no page of its own.
    var errorPageGuards: [(location: SourceLocation, fromUpstream: Bool)] {
        guards.map { ($0.location, !$0.files && !$0.upstreams.isDisjoint(with: siteUpstreams)) }
    }

    /// The proxies inside `handle_errors` that fetch the page from an upstream the site's
    /// requests go to: the one that has just failed.
    var errorPagesFromTheSiteUpstream: [SourceLocation] {
        errorPageProxies.filter { !$0.upstreams.isDisjoint(with: siteUpstreams) }.map(\.location)
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

    /// A block no probe is sent into still holds proxies in the site's order: the first passing
    /// one may be there, where check names the cause.
    private mutating func notePassingProxy(in lines: [CaddyLine]) {
        for line in lines where firstPassingProxy == nil {
            guard let name = line.first?.text else { continue }
            if Self.proxies.contains(name), response(of: line) == nil {
                firstPassingProxy = written(line[0])
            } else if Self.routing.contains(name) {
                notePassingProxy(in: CaddyDirectiveCheck.block(inside: line).lines)
            }
        }
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
