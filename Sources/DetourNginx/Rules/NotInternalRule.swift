import DetourDiagnostics

/// 7. The location serving error pages is not `internal`, or no location of its own serves
/// them (the server's root does): anyone can request the pages directly, and they answer 200
/// and get indexed.
struct NotInternalRule: NginxRule {
    static let about = NginxRules.errorPageNotInternal

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        let fromLocations = eachServingLocation(facts) { location, uris in
            guard !location.isInternal else { return [] }
            return [
                Diagnostic(
                    .note, Self.id,
                    "\(location.description) serves error pages (\(uris.joined(separator: ", "))) but is not internal: they can be requested directly, answer 200 and may be indexed",
                    at: location.directive.location,
                    notes: [
                        Self.fix("add 'internal;' to this location")
                    ])
            ]
        }
        return fromLocations + fromServerRoot(facts)
    }

    /// Pages no location selects: the server's root serves them to anyone. One finding per
    /// server, at the first of their `error_page` lines, naming them all.
    private func fromServerRoot(_ facts: NginxServerFacts) -> [Diagnostic] {
        var served: [String] = []
        var first: NginxErrorPage?
        for (page, target) in facts.pages {
            guard case .uri(let uri, nil, let file?) = target, file.exists else { continue }
            first = first ?? page
            if !served.contains(uri) { served.append(uri) }
        }
        guard let first else { return [] }
        let folder = Self.commonFolder(served)
        let fix =
            served.count == 1
            ? "add 'location = \(served[0]) { internal; }'"
            : folder.map { "add 'location ^~ \($0) { internal; }'" } ?? "give each page a location with 'internal;'"
        let one = served.count == 1
        return [
            Diagnostic(
                .note, Self.id,
                "error page\(one ? "" : "s") \(served.joined(separator: ", ")) \(one ? "is" : "are") served from the server's root with no location of \(one ? "its" : "their") own: a direct request gets 200, and search engines may index \(one ? "it" : "them")",
                at: first.targetLocation,
                notes: [
                    Self.fix(fix)
                ])
        ]
    }

    /// The deepest folder (`/errors/`) holding every URI, nil when that is only `/`.
    private static func commonFolder(_ uris: [String]) -> String? {
        guard var folder = uris.first.map({ String($0[...($0.lastIndex(of: "/") ?? $0.startIndex)]) }) else { return nil }
        while folder.count > 1, !uris.allSatisfy({ $0.hasPrefix(folder) }) {
            folder = String(folder.dropLast())
            folder = String(folder[...(folder.lastIndex(of: "/") ?? folder.startIndex)])
        }
        return folder.count > 1 ? folder : nil
    }
}
