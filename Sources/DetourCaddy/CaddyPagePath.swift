/// The path of an error page's own request as it goes through the `handle`, `handle_path`
/// and `route` blocks inside `handle_errors`: which of them take it, and what `handle_path`
/// strips from it (Caddy 2.6's httpcaddyfile: handle and handle_path are one group, of which
/// only the first block whose matcher matches runs, single path matchers longest first).
enum CaddyPagePath {
    /// A rewrite target as a path for one code (500); nil when another placeholder decides it.
    static func written(_ target: String) -> String? {
        guard target.hasPrefix("/") else { return nil }
        var path = ""
        var rest = Substring(target)
        while let open = rest.firstIndex(of: "{") {
            path += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { return nil }
            let name = rest[open...close]
            guard name == "{err.status_code}" || name == "{http.error.status_code}" else { return nil }
            path += "500"
            rest = rest[rest.index(after: close)...]
        }
        path += rest
        if let query = path.firstIndex(of: "?") { path = String(path[..<query]) }
        return path
    }

    /// Whether a Caddy path matcher takes `path`: exact, a prefix before a final `*`, or
    /// unknown (nil) for other globs.
    static func matches(_ pattern: String, _ path: String) -> Bool? {
        let stars = pattern.filter { $0 == "*" }.count
        if stars == 0 { return pattern == path }
        guard stars == 1, pattern.hasSuffix("*") else { return nil }
        return path.hasPrefix(pattern.dropLast())
    }

    /// What `handle_path <pattern>` strips: the pattern without its final `/*` or `*`.
    static func strippedPrefix(of pattern: String) -> String {
        if pattern.hasSuffix("/*") { return String(pattern.dropLast(2)) }
        return pattern.hasSuffix("*") ? String(pattern.dropLast()) : pattern
    }

    static func strip(_ prefix: String, from path: String) -> String {
        guard path.hasPrefix(prefix) else { return path }
        let rest = String(path.dropFirst(prefix.count))
        return rest.hasPrefix("/") ? rest : "/" + rest
    }

    /// The nested blocks the page's own request can reach, in order, when its path is known:
    /// of the `handle`/`handle_path` group, the first that takes it (blocks whose matcher
    /// detour cannot read stay, as they may take it); then, when none surely does, every
    /// `route` whose path matcher takes it. Every block when the path is unknown.
    static func taking(_ path: String?, _ nested: [CaddyLine]) -> [CaddyLine] {
        guard let path else { return nested }
        let isGroup = { (line: CaddyLine) in line[0].text == "handle" || line[0].text == "handle_path" }
        var reached: [CaddyLine] = []
        for line in sortedGroup(nested.filter(isGroup)) {
            let matcher = line.count > 1 && line[1].text != "{" ? line[1].text : nil
            // A block that surely takes the page answers it: the `route` blocks, which come
            // after the group in Caddy's order, never see it.
            guard let matcher, matcher != "*" else { return reached + [line] }
            guard matcher.hasPrefix("/"), let taken = matches(matcher, path) else {
                reached.append(line)
                continue
            }
            if taken { return reached + [line] }
        }
        return reached
            + nested.filter { line in
                guard !isGroup(line), line.count > 1, line[1].text.hasPrefix("/") else { return !isGroup(line) }
                return matches(line[1].text, path) ?? true
            }
    }

    /// Caddy's order for the group: blocks with a matcher before those without, and among
    /// those with one single path each, the longer path first; otherwise as written.
    private static func sortedGroup(_ group: [CaddyLine]) -> [CaddyLine] {
        let hasMatcher = { (line: CaddyLine) in line.count > 1 && line[1].text != "{" }
        var matched = group.filter(hasMatcher)
        let pathSlots = matched.indices.filter { matched[$0][1].text.hasPrefix("/") }
        let byLength = pathSlots.map { matched[$0] }.enumerated().sorted { left, right in
            left.element[1].text.count != right.element[1].text.count ? left.element[1].text.count > right.element[1].text.count : left.offset < right.offset
        }
        for (slot, line) in zip(pathSlots, byLength.map(\.element)) { matched[slot] = line }
        return matched + group.filter { !hasMatcher($0) }
    }
}
