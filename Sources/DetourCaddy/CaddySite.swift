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
    /// Whether anything outside `handle_errors` can make Caddy answer a 5xx (`raisesServerErrors`).
    var mayRaiseServerError: Bool
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
        mayRaiseServerError = !proxies.isEmpty || block.segments.contains { Self.raisesServerErrors(CaddyLine($0), depth: 0) }
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

    /// Whether a line can make Caddy answer a 5xx: a handler outside `answersItself` (a proxy,
    /// `php_fastcgi`, `templates`, `error`, a plugin's), a `respond` with a 5xx, or such a line
    /// inside a `handle`, `handle_path` or `route`.
    private static func raisesServerErrors(_ line: CaddyLine, depth: Int) -> Bool {
        guard let name = line.first?.text, !name.hasPrefix("@"), depth < CaddyDirectiveCheck.maximumDepth else { return false }
        switch name {
        case "handle", "handle_path", "route":
            return CaddyDirectiveCheck.block(inside: line).lines.contains { raisesServerErrors($0, depth: depth + 1) }
        case "respond":
            return line.dropFirst().contains { !$0.isQuoted && (Int($0.text) ?? 0) >= 500 }
        default:
            return !answersItself.contains(name)
        }
    }

    private static func handlesResponses(_ segment: [CaddyToken]) -> Bool {
        segment.contains { $0.text == "handle_response" && !$0.isQuoted }
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
