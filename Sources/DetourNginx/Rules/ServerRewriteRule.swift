import DetourDiagnostics
import Foundation

/// 13. nginx runs a server's own `rewrite`, `return` and `if` again for the internal redirect
/// to an error page (a URI target; a named location skips them). A rule there that fires
/// again, on a `$request_uri` that still holds the visitor's request or on the page's own URI,
/// keeps the page from being served: visitors get nginx's default page, or a redirect.
struct ServerRewriteRule: NginxRule {
    static let about = NginxRules.errorPageServerRewrite

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        // Every page URI and the codes it answers, in the order the pages are written.
        var uris: [(uri: String, codes: [Int])] = []
        for (page, target) in facts.pages {
            guard case .uri(let uri, _, _) = target else { continue }
            if let index = uris.firstIndex(where: { $0.uri == uri }) { uris[index].codes += page.codes } else { uris.append((uri, page.codes)) }
        }
        guard !uris.isEmpty else { return [] }
        var found: [Diagnostic] = []
        var diverted = Set<String>()
        for directive in server.directive.children {
            switch directive.kind {
            case .return:
                // Fires for every request: the redirect to its own page too.
                if let code = Self.code(directive), let (uri, page) = Self.ownPage(code, server), !diverted.contains(uri) {
                    found.append(
                        Self.finding(
                            "'return \(code)' at server level runs again when nginx redirects to the error page \(uri): visitors get nginx's default \(code) page",
                            at: directive.location,
                            notes: [
                                .init("the page is set here", at: page.targetLocation),
                                Self.fix("return \(code) from 'location / { … }' instead: the page's URI selects its own location and never meets it"),
                            ]))
                }
                return found
            case .rewrite:
                let caught = uris.compactMap { page in
                    diverted.contains(page.uri) ? nil : Self.rewritten(directive, page.uri).map { (page.uri, page.codes, $0) }
                }
                if let (_, _, target) = caught.first {
                    diverted.formUnion(caught.map(\.0))
                    let flag = directive.argumentCount > 2 ? directive.lastValue ?? "" : ""
                    let outcome =
                        flag == "redirect" || flag == "permanent"
                        ? "visitors are redirected (to '\(target)' for the first) and lose the status"
                        : "nginx looks up '\(target)' (for the first) instead of the page"
                    let pages = caught.map { "\($0.0) (\(Self.codes($0.1)))" }.joined(separator: ", ")
                    found.append(
                        Self.finding(
                            "this server-level rewrite runs again when nginx redirects to an error page and matches \(caught.count == 1 ? "it" : "them"): \(pages): \(outcome)",
                            at: directive.location,
                            notes: [
                                Self.fix("make the pattern exclude the pages' URIs, or move the rewrite into 'location / { … }'")
                            ]))
                }
                if directive.lastValue == "break" { return found }
            case .if:
                guard let condition = NginxCondition(directive), let returned = directive.children.first(where: { $0.kind == .return }) else { continue }
                let code = Self.code(returned)
                for (uri, codes) in uris where !diverted.contains(uri) {
                    switch condition.outcome(onRedirectTo: uri) {
                    case .asBefore:
                        // It held for the visitor's request, so it returned: only its own page meets it again.
                        guard let code, let (ownURI, page) = Self.ownPage(code, server), ownURI == uri else { continue }
                        diverted.insert(uri)
                        let subject = condition.words.first ?? ""
                        found.append(
                            Self.finding(
                                "this server-level 'if' returns \(code) and runs again when nginx redirects to the error page \(uri): \(subject) still holds what the visitor sent, so visitors get nginx's default \(code) page",
                                at: directive.location,
                                notes: [
                                    .init("the page is set here", at: page.targetLocation),
                                    Self.fix(
                                        subject == "$request_uri"
                                            ? "test $uri instead of $request_uri, or make it a location ('location ~ … { return \(code); }'): the page's URI matches neither"
                                            : "move the check into the locations visitors' requests select ('location / { … }'), which the page's URI does not"),
                                ]))
                    case .holds:
                        diverted.insert(uri)
                        let answer = code.map { "nginx's default \($0) page" } ?? "its redirect"
                        found.append(
                            Self.finding(
                                "this server-level 'if' holds for the error page \(uri) (for \(Self.codes(codes))) when nginx redirects to it: visitors get \(answer) instead",
                                at: directive.location,
                                notes: [
                                    Self.fix("make the condition exclude the pages' URIs, or move the check into 'location / { … }'")
                                ]))
                    case .fails, .unknown:
                        continue
                    }
                }
            default:
                if directive.kind == nil, directive.name == "break" { return found }
            }
        }
        return found
    }

    /// The status a `return` sends, nil for `return URL` (a 302).
    private static func code(_ directive: NginxDirective) -> Int? {
        directive.firstValue.flatMap { Int($0) }
    }

    /// The server-level page for `code` when it is a URI (a named location is reached without
    /// the server's rewrite rules).
    private static func ownPage(_ code: Int, _ server: NginxServer) -> (String, NginxErrorPage)? {
        guard let page = server.scope.page(for: code), !page.isNamedLocation, !page.hasVariables else { return nil }
        return (page.path, page)
    }

    /// What `rewrite regex replacement` turns `uri` into, nil when the pattern does not match;
    /// the captures are filled in, other variables stay as written.
    private static func rewritten(_ directive: NginxDirective, _ uri: String) -> String? {
        guard let pattern = directive.firstValue, let replacement = directive.value(at: 1),
            let regex = NginxRegex.compile(pattern),
            let match = regex.firstMatch(in: uri, range: NSRange(uri.startIndex..., in: uri))
        else { return nil }
        var captures: [String: String] = [:]
        for group in 0..<match.numberOfRanges {
            captures[String(group)] = Range(match.range(at: group), in: uri).map { String(uri[$0]) } ?? ""
        }
        return NginxVariables.expand(replacement, captures) ?? replacement
    }
}
