import DetourSupport
import Foundation

/// One way a `handle_errors` block answers: the innermost `handle`/`route` (or the block
/// itself) with the `root`, `rewrite`, `try_files`, `file_server` and `respond` in effect there,
/// what stands before them (auth, a `respond` that refuses) and the codes and requests its
/// matchers let in.
struct CaddyErrorRoute: Sendable {
    /// The `handle_errors` line.
    var block: CaddyToken
    var root: [CaddyToken]?
    var rewrite: [CaddyToken]?
    var tryFiles: [CaddyToken]?
    var fileServer: CaddyToken?
    /// The first `respond` without a matcher: it ends the route before `file_server` runs.
    var respond: [CaddyToken]?
    /// Every `respond` line, with a matcher or not.
    var responds: [[CaddyToken]] = []
    /// A `reverse_proxy`/`php_fastcgi` line: the page is fetched from there.
    var proxy: [CaddyToken]?
    /// `basicauth`, `basic_auth`, `forward_auth` and `respond MATCHER 4xx` (no body) lines on
    /// the way in.
    var guards: [[CaddyToken]] = []
    /// The matcher of an enclosing `handle`/`route` that looks at the request, not the status,
    /// and the line that defines it (nil for a path matcher written in place).
    var condition: (matcher: CaddyToken, definition: [CaddyToken]?)?
    /// Codes a `{err.status_code}` matcher (or 2.8's `handle_errors 5xx`) admits; nil: every code.
    var codes: Set<Int>?
    /// The page's own path as the route sees it, for one code (`/errors/500.html`): nil when
    /// no `rewrite` set it or a placeholder other than the code decides it.
    var pagePath: String?
    /// What enclosing `handle_path` blocks stripped from the page's path since its target was set.
    var strippedPrefix = ""
    /// A `file_server` in a block beside this one that the page's own request never reaches,
    /// as this one takes it.
    var passedFileServer: CaddyToken?

    /// Whether something here writes a body: a `file_server`, a `respond` or a proxy.
    var writesBody: Bool { fileServer != nil || !responds.isEmpty || proxy != nil }

    /// The directive that names the page's path: `try_files` (the later in Caddy's order) or `rewrite`.
    var pageTarget: [CaddyToken]? { tryFiles ?? rewrite }

    /// The routes of a `handle_errors` segment; `siteRoot` is the site's own `root`.
    static func routes(of segment: [CaddyToken], siteRoot: [CaddyToken]?) -> [CaddyErrorRoute] {
        var found: [CaddyErrorRoute] = []
        let start = CaddyErrorRoute(block: segment[0], root: siteRoot, codes: CaddyErrorStatuses.admitted(by: segment))
        collect(CaddyLine(segment), into: &found, inherited: start, matchers: [:], depth: 0)
        return found
    }

    private static func collect(
        _ segment: CaddyLine, into found: inout [CaddyErrorRoute], inherited: CaddyErrorRoute, matchers: [String: [CaddyToken]], depth: Int
    ) {
        guard depth < CaddyDirectiveCheck.maximumDepth else { return }
        var route = inherited
        var matchers = matchers
        var nested: [CaddyLine] = []
        for line in CaddyDirectiveCheck.block(inside: segment).lines {
            guard let name = line.first?.text else { continue }
            if name.hasPrefix("@") {
                matchers[name] = line.tokens
                continue
            }
            let matched = line.count > 1 && isMatcher(line[1])
            switch name {
            case "root": route.root = line.tokens
            case "rewrite":
                route.rewrite = line.tokens
                route.pagePath = line.count >= 2 ? CaddyPagePath.written(line[line.count - 1].text) : nil
                route.strippedPrefix = ""
            case "try_files":
                route.tryFiles = line.tokens
                route.strippedPrefix = ""
            case "file_server": route.fileServer = line[0]
            case "respond":
                route.responds.append(line.tokens)
                if !matched || line[1].text == "*" {
                    if route.respond == nil { route.respond = line.tokens }
                } else if let status = line.last.flatMap({ Int($0.text) }), (400...499).contains(status), line.count == 3 || line[2].text.isEmpty {
                    // `respond MATCHER 4xx` with no body of its own: those visitors get the
                    // status with an empty body; with a body, the site's own answer.
                    route.guards.append(line.tokens)
                }
            case "basicauth", "basic_auth", "forward_auth": route.guards.append(line.tokens)
            case "reverse_proxy", "php_fastcgi": route.proxy = line.tokens
            case "handle", "route", "handle_path": nested.append(line)
            default: break
            }
        }
        if route.writesBody || nested.isEmpty { found.append(route) }
        let taken = CaddyPagePath.taking(route.pagePath, nested)
        let passed = nested.filter { line in !taken.contains { $0.words.startIndex == line.words.startIndex } }.lazy.compactMap { line in
            CaddyDirectiveCheck.block(inside: line).lines.first { $0.first?.text == "file_server" }?[0]
        }.first
        for line in taken {
            var inner = route
            inner.passedFileServer = passed
            inner.fileServer = nil
            inner.respond = nil
            inner.responds = []
            inner.proxy = nil
            if line.count > 1, line[1].text.hasPrefix("/"), let path = route.pagePath {
                // The page's own request: the matcher lets it in (`taking`), and handle_path
                // strips its prefix.
                if line[0].text == "handle_path" {
                    let prefix = CaddyPagePath.strippedPrefix(of: line[1].text)
                    inner.pagePath = CaddyPagePath.strip(prefix, from: path)
                    inner.strippedPrefix += prefix
                }
            } else if line.count > 1, isMatcher(line[1]), line[1].text != "*" {
                if let definition = matchers[line[1].text], let codes = statusCodes(definition) {
                    inner.codes = inner.codes.map { $0.intersection(codes) } ?? codes
                } else {
                    inner.condition = (line[1], matchers[line[1].text])
                }
            }
            collect(line, into: &found, inherited: inner, matchers: matchers, depth: depth + 1)
        }
    }

    /// Whether a directive's first argument is a matcher, as Caddy decides: `*`, a path, `@name`.
    static func isMatcher(_ token: CaddyToken) -> Bool {
        token.text == "*" || token.text.hasPrefix("/") || token.text.hasPrefix("@")
    }

    /// `@m expression {err.status_code} in [500, 502]`, `== 502`, `>= 500`: the codes it admits;
    /// also written as a block holding that one line (`@m {` / `expression …` / `}`).
    private static func statusCodes(_ line: [CaddyToken]) -> Set<Int>? {
        if line.count >= 2, line[1].text == "{", !line[1].isQuoted {
            let inside = CaddyDirectiveCheck.block(inside: CaddyLine(line)).lines
            guard inside.count == 1, inside[0].first?.text == "expression" else { return nil }
            return statusCodes([line[0]] + inside[0].tokens)
        }
        guard line.count >= 3, line[1].text == "expression" else { return nil }
        let text = line[2...].map(\.text).joined(separator: " ")
        // Byte searches: Foundation's `contains` is slow, and every site's matchers are read.
        func has(_ part: String) -> Bool { ByteSearch.contains(part, in: text) }
        guard has("{err.status_code}") || has("{http.error.status_code}") else { return nil }
        var numbers = Set<Int>()
        var number = 0
        var digits = 0
        for byte in text.utf8 {
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                number = number * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                continue
            }
            if digits > 0, digits <= 3, (100...599).contains(number) { numbers.insert(number) }
            number = 0
            digits = 0
        }
        if digits > 0, digits <= 3, (100...599).contains(number) { numbers.insert(number) }
        if has(" in [") || has("==") { return numbers }
        if let low = numbers.min(), has(">=") { return Set(low...599) }
        if let low = numbers.min(), has(">") { return Set((low + 1)...599) }
        return nil
    }
}
