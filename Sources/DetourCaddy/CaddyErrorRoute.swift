import Foundation

/// One way a `handle_errors` block answers: the innermost `handle`/`route` (or the block
/// itself) with the `root`, `rewrite`, `file_server` and `respond` in effect there, and the
/// codes its matcher lets in.
struct CaddyErrorRoute: Sendable {
    /// The `handle_errors` line.
    var block: CaddyToken
    var root: [CaddyToken]?
    var rewrite: [CaddyToken]?
    var fileServer: CaddyToken?
    var respond: [CaddyToken]?
    /// Codes a `{err.status_code}` matcher admits; nil: every code.
    var codes: Set<Int>?

    /// The routes of a `handle_errors` segment; `siteRoot` is the site's own `root`.
    static func routes(of segment: [CaddyToken], siteRoot: [CaddyToken]?) -> [CaddyErrorRoute] {
        var found: [CaddyErrorRoute] = []
        collect(segment, into: &found, inherited: CaddyErrorRoute(block: segment[0], root: siteRoot), matchers: [:], depth: 0)
        return found
    }

    private static func collect(_ segment: [CaddyToken], into found: inout [CaddyErrorRoute], inherited: CaddyErrorRoute, matchers: [String: Set<Int>], depth: Int) {
        guard depth < CaddyDirectiveCheck.maximumDepth else { return }
        var route = inherited
        var matchers = matchers
        var nested: [([CaddyToken], Set<Int>?)] = []
        for line in CaddyDirectiveCheck.block(inside: segment).lines {
            guard let name = line.first?.text else { continue }
            if name.hasPrefix("@"), let codes = statusCodes(line) {
                matchers[name] = codes
                continue
            }
            switch name {
            case "root": route.root = line
            case "rewrite": route.rewrite = line
            case "file_server": route.fileServer = line[0]
            case "respond": route.respond = line
            case "handle", "route", "handle_path":
                let matcher = line.count > 1 ? line[1].text : ""
                nested.append((line, matcher.hasPrefix("@") ? matchers[matcher] ?? nil : nil))
            default: break
            }
        }
        if route.fileServer != nil || route.respond != nil || nested.isEmpty { found.append(route) }
        for (line, codes) in nested {
            var inner = route
            inner.fileServer = nil
            inner.respond = nil
            if let codes { inner.codes = inner.codes.map { $0.intersection(codes) } ?? codes }
            collect(line, into: &found, inherited: inner, matchers: matchers, depth: depth + 1)
        }
    }

    /// `@m expression {err.status_code} in [500, 502]`, `== 502`, `>= 500`: the codes it admits.
    private static func statusCodes(_ line: [CaddyToken]) -> Set<Int>? {
        guard line.count >= 3, line[1].text == "expression" else { return nil }
        let text = line[2...].map(\.text).joined(separator: " ")
        guard text.contains("{err.status_code}") || text.contains("{http.error.status_code}") else { return nil }
        let numbers = Set(text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.filter { (100...599).contains($0) })
        if text.contains(" in [") || text.contains("==") { return numbers }
        if let low = numbers.min(), text.contains(">=") { return Set(low...599) }
        if let low = numbers.min(), text.contains(">") { return Set((low + 1)...599) }
        return nil
    }
}
