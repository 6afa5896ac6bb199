import DetourDiagnostics

/// An error page that not every visitor can get: `basicauth`/`forward_auth` in its route (a
/// refusal inside `handle_errors` is swallowed: the status goes out with an empty body), a
/// `respond MATCHER 4xx` before it, or a request matcher with no route for the rest.
struct CaddyErrorPageProtectedRule: CaddyRule {
    static let about = RuleDescription(
        "caddy.error-page-protected", .warning,
        summary: "a handle_errors page sits behind basicauth, forward_auth, a respond 4xx matcher, or a matcher not every visitor meets",
        consequence: "the status with an empty body (or the 4xx) for visitors who do not pass"
    )

    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for (index, route) in site.errorRoutes.enumerated() where route.writesBody {
            let uris = site.pageFiles[index].values.flatMap { $0.map(\.uri) }
            for line in route.guards where Self.applies(line, to: uris) {
                found.append(finding(line, context))
            }
        }
        found += unmatchedVisitors(site, context)
        return found
    }

    private func finding(_ line: [CaddyToken], _ context: CaddyCheckContext) -> Diagnostic {
        let name = line[0].text
        let matcher = line.count > 1 && CaddyErrorRoute.isMatcher(line[1]) && line[1].text != "*" ? line[1].text : nil
        let who = matcher.map { "visitors whose request matches \($0)" } ?? "every visitor"
        if name == "respond" {
            return .warning(Self.id, "\(who) get\(matcher == nil ? "s" : "") \(line.last!.text) with an empty body instead of the error page and its status", at: context.location(of: line[0]), notes: [
                Self.fix("answer those requests with the page too, or move the respond out of handle_errors"),
            ])
        }
        let visitor = name == "forward_auth" ? "a visitor the auth service turns away" : "a visitor without credentials"
        let scope = matcher.map { " for requests that match \($0)" } ?? ""
        return .warning(Self.id, "the error pages are behind \(name)\(scope): Caddy swallows the refusal inside handle_errors, so \(visitor) gets the status with an empty body",
                        at: context.location(of: line[0]), notes: [Self.fix("take \(name) out of handle_errors; error pages are for every visitor")])
    }

    /// A guard with a path matcher only stands before pages whose path it matches.
    private static func applies(_ line: [CaddyToken], to uris: [String]) -> Bool {
        guard line.count > 1, line[1].text.hasPrefix("/") else { return true }
        let pattern = line[1].text
        if uris.isEmpty { return true }
        return uris.contains { pattern.hasSuffix("*") ? $0.hasPrefix(pattern.dropLast()) : $0 == pattern }
    }

    /// Codes whose every answering route waits for a request matcher: the rest get nothing.
    private func unmatchedVisitors(_ site: CaddySite, _ context: CaddyCheckContext) -> [Diagnostic] {
        let answering = site.errorRoutes.filter(\.writesBody)
        var byMatcher: [(token: CaddyToken, definition: [CaddyToken]?, codes: [Int])] = []
        for code in context.pageCodes {
            let routes = answering.filter { context.answers($0, code) }
            guard let first = routes.first?.condition, routes.allSatisfy({ $0.condition != nil }) else { continue }
            if let at = byMatcher.firstIndex(where: { $0.token == first.matcher }) {
                byMatcher[at].codes.append(code)
            } else {
                byMatcher.append((first.matcher, first.definition, [code]))
            }
        }
        return byMatcher.map { matcher in
            let shown = matcher.definition.map { " (\($0.dropFirst().map(\.text).joined(separator: " ")))" } ?? ""
            var notes: [Diagnostic.Note] = []
            if let definition = matcher.definition { notes.append(.init("the matcher is defined here", at: context.location(of: definition[0]))) }
            notes.append(Self.fix("add a 'handle { … }' with the page after it for every other request"))
            return .warning(Self.id, "pages for \(Self.codes(matcher.codes)) are sent only to requests that match \(matcher.token.text)\(shown): every other visitor gets the status with an empty body",
                            at: context.location(of: matcher.token), notes: notes)
        }
    }
}
