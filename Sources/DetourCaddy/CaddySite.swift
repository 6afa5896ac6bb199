import DetourDiagnostics
import DetourProxyCore
import Foundation

/// A site block as the checker sees it: its addresses, its `root`, the ways its
/// `handle_errors` answer, its proxies, and what stands before every request.
struct CaddySite: Sendable {
    var block: CaddySiteBlock
    var root: [CaddyToken]?
    var errorBlocks: [CaddyToken]
    var errorRoutes: [CaddyErrorRoute]
    /// Each `reverse_proxy`/`php_fastcgi` line, at the site's top or in its `handle`, `handle_path`
    /// and `route` blocks, and whether it has a `handle_response`.
    var proxies: [(line: [CaddyToken], handlesResponses: Bool)]
    /// The lines inside each `handle_response` block of those proxies.
    var responseHandlers: [[[CaddyToken]]]
    /// The 5xx anything outside `handle_errors` can make Caddy answer (`serverErrors`): nil
    /// for any, empty for none.
    var raisedServerErrors: Set<Int>?
    /// `map` outputs by placeholder (`{detour_language}` → en, de, …).
    var mapValues: [String: [String]]
    /// The site in neutral terms, with the files each error route sends: worked out once
    /// (`resolve`) for the rules and the coverage table.
    private(set) var model = ErrorPageSite<CaddyPageOrigin>(
        coverage: SiteCoverage(name: "", location: SourceLocation(path: "", line: 1, column: 1), answers: []), routes: [])

    mutating func resolve(in context: CaddyCheckContext) {
        let site = self
        let pageFiles = errorRoutes.map { route in
            var files: [Int: [PageFile]] = [:]
            for code in context.pageCodes where context.answers(route, code) { files[code] = context.pageFiles(route, code: code, in: site) }
            return files
        }
        model = neutralModel(in: context, pageFiles: pageFiles)
    }

    var name: String { block.keys.map(\.text).joined(separator: " ") }

    init(_ block: CaddySiteBlock) {
        self.block = block
        var root: [CaddyToken]?
        var errorBlocks: [CaddyToken] = []
        var proxies: [([CaddyToken], Bool)] = []
        var maps: [String: [String]] = [:]
        var errorSegments: [[CaddyToken]] = []
        for segment in block.segments {
            switch segment.first?.text {
            case "root": root = segment
            case "handle_errors":
                errorBlocks.append(segment[0])
                errorSegments.append(segment)
            case "reverse_proxy", "php_fastcgi":
                proxies.append((segment, Self.handlesResponses(segment)))
            case "handle", "handle_path", "route": Self.collectProxies(in: CaddyLine(segment), into: &proxies, depth: 1)
            case "map": Self.readMap(segment, into: &maps)
            default: break
            }
            // Maps inside handle_errors (or anywhere nested) count too.
            for (index, token) in segment.enumerated().dropFirst() where token.text == "map" && !token.isQuoted {
                Self.readMap(Array(segment[index...]), into: &maps)
            }
        }
        self.root = root
        self.errorBlocks = errorBlocks
        errorRoutes = errorSegments.flatMap { CaddyErrorRoute.routes(of: $0, siteRoot: root) }
        self.proxies = proxies
        raisedServerErrors = proxies.isEmpty ? Self.union(block.segments.map { Self.serverErrors(CaddyLine($0), depth: 0) }) : nil
        responseHandlers = proxies.flatMap { proxy in
            CaddyDirectiveCheck.block(inside: proxy.0).lines.filter { $0.first?.text == "handle_response" }.map {
                CaddyDirectiveCheck.block(inside: $0).lines.map(\.tokens)
            }
        }
        mapValues = maps
    }

    /// Directives that answer from the request alone or only shape it: a site made of them
    /// (redirects, fixed responses, files) never answers a 5xx, so needs no 5xx page.
    private static let answersItself: Set<String> = [
        "abort", "basic_auth", "basicauth", "bind", "encode", "file_server", "handle_errors", "header", "log", "log_append", "log_name", "log_skip", "map",
        "method", "redir", "request_body", "request_header", "respond", "rewrite", "root", "skip_log", "tls", "try_files", "uri", "vars",
    ]

    /// The line every request of the site meets, which answers it with no error: a `redir`
    /// without a matcher at the site's top (Caddy runs it before any directive that can fail;
    /// only `map`, `vars`, `root`, `header` and `request_body` come first, and only the last can
    /// refuse a request), or such a `respond` in a site whose other lines only shape the
    /// request or the response. A fixed answer is not an error: `handle_errors` never runs.
    var answerForEveryRequest: CaddyToken? {
        guard !block.segments.contains(where: { $0.first?.text == "request_body" }) else { return nil }
        func unconditional(_ segment: [CaddyToken], _ name: String) -> Bool {
            segment.first?.text == name && segment.count > 1 && (!CaddyErrorRoute.isMatcher(segment[1]) || segment[1].text == "*")
        }
        if let redirect = block.segments.first(where: { unconditional($0, "redir") }) { return redirect.first }
        guard let respond = block.segments.first(where: { unconditional($0, "respond") && Self.sendsValidStatus($0) }),
            block.segments.allSatisfy({ segment in
                let name = segment.first?.text ?? ""
                return Self.shapesOnly.contains(name) || name == "respond" || name.hasPrefix("@")
            })
        else { return nil }
        return respond.first
    }

    /// Whether a `respond` line's status, where it has one, is one Caddy can send: with a body
    /// and a status (`respond "Gone" 410`) the second word must be a number from 100 to 999,
    /// or Caddy fails the request with a 500 (`respond 400 "Bad request"` reads "Bad request"
    /// as the status).
    private static func sendsValidStatus(_ segment: [CaddyToken]) -> Bool {
        var arguments = segment.dropFirst().prefix { $0.text != "{" || $0.isQuoted }
        if let first = arguments.first, !first.isQuoted, CaddyErrorRoute.isMatcher(first) { arguments = arguments.dropFirst() }
        guard arguments.count == 2 else { return arguments.count == 1 }
        let status = arguments[arguments.startIndex + 1].text
        // A placeholder is read when the request comes: not judged here.
        return status.contains("{") || Int(status).map { (100...999).contains($0) } ?? false
    }

    /// Directives that shape a request or its response and never answer it themselves.
    private static let shapesOnly: Set<String> = [
        "bind", "encode", "header", "log", "log_append", "log_skip", "map", "request_header", "rewrite", "root", "skip_log", "tls", "uri", "vars",
    ]

    /// Whether the site can make Caddy answer `code` (a 5xx) outside `handle_errors`.
    func mayRaise(_ code: Int) -> Bool { raisedServerErrors?.contains(code) ?? true }

    /// The 5xx a line can make Caddy answer: any (nil) for a handler outside `answersItself`
    /// (a proxy, `php_fastcgi`, `templates`, a plugin's); those an `error` names (500 when it
    /// names none) or a `respond` sends; `forward_auth`'s 502, and 504 under a timeout it
    /// sets; those of the lines inside a `handle`, `handle_path` or `route`.
    private static func serverErrors(_ line: CaddyLine, depth: Int) -> Set<Int>? {
        guard let name = line.first?.text, !name.hasPrefix("@"), depth < CaddyDirectiveCheck.maximumDepth else { return [] }
        switch name {
        case "handle", "handle_path", "route":
            return union(CaddyDirectiveCheck.block(inside: line).lines.map { serverErrors($0, depth: depth + 1) })
        case "respond":
            // A status Caddy cannot send fails the request with a 500.
            guard sendsValidStatus(line.tokens) else { return [500] }
            return Set(line.dropFirst().compactMap { $0.isQuoted ? nil : Int($0.text) }.filter { $0 >= 500 })
        case "error":
            let statuses = line.dropFirst().compactMap { Int($0.text) }.filter { (100...999).contains($0) }
            return statuses.isEmpty ? [500] : Set(statuses.filter { $0 >= 500 })
        case "forward_auth":
            // The auth service's own answers go to the visitor as they are; Caddy raises 502
            // when it cannot reach it, and 504 when a response timeout set here runs out (or
            // a connection attempt times out, which a refused or local one never does: not counted).
            let times = line.contains { $0.text == "response_header_timeout" || $0.text == "read_timeout" }
            return times ? [502, 504] : [502]
        default:
            return answersItself.contains(name) ? [] : nil
        }
    }

    /// Several lines' 5xx: nil when one of them can raise any.
    private static func union(_ sets: [Set<Int>?]) -> Set<Int>? {
        var all = Set<Int>()
        for set in sets {
            guard let set else { return nil }
            all.formUnion(set)
        }
        return all
    }

    /// Whether a proxy's `handle_response` answers the responses it takes itself; one that
    /// only `copy_response`s sends the application's answer on as it came.
    private static func handlesResponses(_ segment: [CaddyToken]) -> Bool {
        guard segment.contains(where: { $0.text == "handle_response" && !$0.isQuoted }) else { return false }
        guard segment.contains(where: { $0.text == "copy_response" && !$0.isQuoted }) else { return true }
        return CaddyDirectiveCheck.block(inside: CaddyLine(segment)).lines.contains { line in
            line.first?.text == "handle_response" && !CaddyDirectiveCheck.block(inside: line).lines.contains { $0.first?.text == "copy_response" }
        }
    }

    /// The proxies inside a `handle`, `handle_path` or `route` block, at any depth: the requests
    /// its matcher takes reach them as they reach one at the site's top.
    private static func collectProxies(in segment: CaddyLine, into proxies: inout [([CaddyToken], Bool)], depth: Int) {
        guard depth < CaddyDirectiveCheck.maximumDepth else { return }
        for line in CaddyDirectiveCheck.block(inside: segment).lines {
            switch line.first?.text {
            case "reverse_proxy", "php_fastcgi": proxies.append((line.tokens, handlesResponses(line.tokens)))
            case "handle", "handle_path", "route": collectProxies(in: line, into: &proxies, depth: depth + 1)
            default: break
            }
        }
    }

    /// `map SOURCE {out} { "~regex" value … default value }`: the literal values; a `${1}`
    /// value is read from a plain `(a|b|c)` group of its pattern.
    private static func readMap(_ segment: [CaddyToken], into maps: inout [String: [String]]) {
        guard segment.count > 3, segment[2].text.hasPrefix("{"), segment[3].text == "{" else { return }
        var values: [String] = []
        for line in CaddyDirectiveCheck.block(inside: segment).lines where line.count == 2 {
            let value = line[1].text
            if value.hasPrefix("$") {
                values += alternatives(line[0].text).filter { !values.contains($0) }
            } else if line[0].text == "default" {
                // The default first: what most visitors get, and what the table shows.
                values.removeAll { $0 == value }
                values.insert(value, at: 0)
            } else if !values.contains(value) {
                values.append(value)
            }
        }
        maps[segment[2].text, default: []] += values.filter { !(maps[segment[2].text] ?? []).contains($0) }
    }

    private static let group = try! NSRegularExpression(pattern: #"\(([A-Za-z_-]+(?:\|[A-Za-z_-]+)+)\)"#)

    /// `(en|de|fr)` in a pattern: the words a capture can take.
    private static func alternatives(_ pattern: String) -> [String] {
        guard let match = group.firstMatch(in: pattern, range: NSRange(pattern.startIndex..., in: pattern)),
            let range = Range(match.range(at: 1), in: pattern)
        else { return [] }
        return pattern[range].split(separator: "|").map(String.init)
    }
}
