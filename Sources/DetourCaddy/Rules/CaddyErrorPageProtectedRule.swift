import DetourDiagnostics
import DetourProxyCore

/// An error page that not every visitor can get: `basicauth`/`forward_auth` in its route (a
/// refusal inside `handle_errors` is swallowed: the status goes out with an empty body), a
/// `respond MATCHER 4xx` without a body before it, or a request matcher with no route for the
/// rest.
struct CaddyErrorPageProtectedRule: CaddyRule {
    static let about = CaddyRules.protected

    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic] {
        ErrorPageChecks.protectedPages(site.model).compactMap { route, stand, codes in
            guard case .errors(let errors) = route.origin else { return nil }
            if stand.selectsRequests, let condition = errors.condition { return unmatchedVisitors(condition, codes, context) }
            return errors.guards.first { context.location(of: $0[0]) == stand.at }.map { finding($0, context) }
        }
    }

    private func finding(_ line: [CaddyToken], _ context: CaddyCheckContext) -> Diagnostic {
        let name = line[0].text
        let matcher = line.count > 1 && CaddyErrorRoute.isMatcher(line[1]) && line[1].text != "*" ? line[1].text : nil
        let who = matcher.map { "visitors whose request matches \($0)" } ?? "every visitor"
        if name == "respond" {
            return Self.finding(
                "\(who) get\(matcher == nil ? "s" : "") \(line.last!.text) with an empty body instead of the error page and its status",
                at: context.location(of: line[0]),
                notes: [
                    Self.fix("answer those requests with the page too, or move the respond out of handle_errors")
                ])
        }
        let visitor = name == "forward_auth" ? "a visitor the auth service turns away" : "a visitor without credentials"
        let scope = matcher.map { " for requests that match \($0)" } ?? ""
        return Self.finding(
            "the error pages are behind \(name)\(scope): Caddy swallows the refusal inside handle_errors, so \(visitor) gets the status with an empty body",
            at: context.location(of: line[0]), notes: [Self.fix("take \(name) out of handle_errors; error pages are for every visitor")])
    }

    /// Codes whose every answering route waits for a request matcher: the rest get nothing.
    private func unmatchedVisitors(_ condition: (matcher: CaddyToken, definition: [CaddyToken]?), _ codes: [Int], _ context: CaddyCheckContext) -> Diagnostic {
        let shown = condition.definition.map { " (\($0.dropFirst().map(\.text).joined(separator: " ")))" } ?? ""
        var notes: [Diagnostic.Note] = []
        if let definition = condition.definition { notes.append(.init("the matcher is defined here", at: context.location(of: definition[0]))) }
        notes.append(Self.fix("add a 'handle { … }' with the page after it for every other request"))
        return Self.finding(
            "pages for \(Self.codes(codes)) are sent only to requests that match \(condition.matcher.text)\(shown): every other visitor gets the status with an empty body",
            at: context.location(of: condition.matcher), notes: notes)
    }
}
