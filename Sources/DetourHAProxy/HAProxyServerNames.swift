import DetourDiagnostics

/// Two servers of one proxy with the same name: HAProxy refuses the configuration once it has
/// read it (`check_config_validity`), at the later server's line, unless either has an `id` of
/// its own. Each server is named for its first conflict only, as HAProxy names it.
enum HAProxyServerNames {
    static func conflicts(in sections: [HAProxySection]) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for section in sections where ["backend", "listen"].contains(section.kind) {
            // The servers without an id of their own, with where each was first named.
            var first: [String: Int] = [:]
            for line in section.lines where line.keyword == "server" && line.words.count >= 2 {
                if line.words.dropFirst(2).contains(where: { $0.text == "id" }) { continue }
                let name = line.words[1].text
                if let earlier = first[name] {
                    found.append(
                        .error(
                            HAProxyRules.syntax.id,
                            "\(section.kind) '\(section.name ?? "")', another server named '\(name)' was already defined at line \(earlier), please use distinct names: HAProxy refuses the file",
                            at: line.location))
                } else {
                    first[name] = line.number
                }
            }
        }
        return found
    }
}
