import DetourDiagnostics

/// Two servers of one proxy with the same name: HAProxy refuses the configuration once it has
/// read it (`check_config_validity`), at the later server's line, unless either has an `id` of
/// its own. Each server is named for its first conflict only, as HAProxy names it.
enum HAProxyServerNames {
    static func conflicts(in sections: [HAProxySection]) -> [Diagnostic] {
        var found: [Diagnostic] = []
        // The servers without an id of their own, with where each was first named: looked up
        // in order while a proxy has a few (thousands of proxies with two each), by name past
        // that. Emptied for each proxy, their storage kept.
        var first: [(name: String, line: Int)] = []
        var byName: [String: Int] = [:]
        for section in sections where section.kind == "backend" || section.kind == "listen" {
            first.removeAll(keepingCapacity: true)
            byName.removeAll(keepingCapacity: true)
            func earlier(_ name: String) -> Int? {
                first.count <= 16 ? first.first { $0.name == name }?.line : byName[name]
            }
            for line in section.lines where line.knownKeyword == .server && line.words.count >= 2 {
                if line.words.dropFirst(2).contains(where: { "id" ~= $0 }) { continue }
                let name = line.words[1].text
                if let earlier = earlier(name) {
                    found.append(
                        .error(
                            HAProxyRules.syntax.id,
                            "\(section.kind) '\(section.name ?? "")', another server named '\(name)' was already defined at line \(earlier), please use distinct names: HAProxy refuses the file",
                            at: line.location))
                } else {
                    // Each name once: a repeat is a conflict, not another entry.
                    first.append((name, line.number))
                    if first.count == 17 { byName = Dictionary(uniqueKeysWithValues: first.map { ($0.name, $0.line) }) }
                    if first.count > 17 { byName[name] = line.number }
                }
            }
        }
        return found
    }
}
