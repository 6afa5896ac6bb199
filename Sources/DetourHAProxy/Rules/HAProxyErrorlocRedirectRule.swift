import DetourDiagnostics
import DetourProxyCore

/// `errorloc` answers an error with a redirect to the page: the status is lost, and the page's
/// own request comes back through the frontend. One that a backend's own page shadows answers
/// nobody (`answersInEffect`). On HAProxy 2.6, a 503 page path that reaches
/// the same dead backend is redirected to itself, again and again.
struct HAProxyErrorlocRedirectRule: HAProxyRule {
    static let about = HAProxyRules.errorlocRedirect

    /// Errors a failing backend gives every request, the page's own too.
    private static let failureCodes: Set<Int> = [502, 503, 504]

    /// Where one redirect's page goes, from every frontend that uses it.
    private struct Destinations {
        var notes: [Diagnostic.Note] = []
        private var seen = Set<Diagnostic.Note>()
        var undecided = false

        mutating func add(_ note: Diagnostic.Note) {
            if seen.insert(note).inserted { notes.append(note) }
        }
    }

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        let destinations = Self.destinations(in: model)
        return model.redirects.compactMap { redirect in
            guard let code = redirect.code, context.answering.contains(redirect.line) else { return nil }
            var route: [Diagnostic.Note] = []
            if redirect.isLocal {
                let found = destinations[redirect.line] ?? Destinations()
                route = found.notes
                if found.undecided || found.notes.isEmpty {
                    route.append(
                        .init(
                            "the page's own request comes back through the frontend: where it reaches the backend that failed, visitors are sent to the page again and again"
                        ))
                }
            }
            return Self.finding(
                "\(redirect.directive) answers \(code) with a \(redirect.status) to '\(redirect.target)': visitors, crawlers and monitors get a redirect, not \(code)",
                at: redirect.line,
                notes: route + [
                    Self.fix(
                        "use 'errorfile \(code) <install path>/errors/\(code).http' (detour's snippets/haproxy.cfg): the page goes out with its status, from memory"
                    )
                ])
        }
    }

    /// For each errorloc line, where its page's own request goes from each frontend whose
    /// backends answer with it: back to the backend that failed (a loop), or elsewhere.
    private static func destinations(in model: HAProxyModel) -> [SourceLocation: Destinations] {
        var found: [SourceLocation: Destinations] = [:]
        for entry in model.httpEntries {
            var router = HAProxyPageRouter(entry, in: model)
            for failing in model.backends(of: entry) {
                let codes = Set(failing.settings.errorRedirects.keys).union(entry.settings.errorRedirects.keys)
                for code in codes.sorted() {
                    // HAProxy looks in the backend first, then the frontend.
                    let answering = failing.settings.answer(for: code) != nil ? failing : entry
                    guard let redirect = answering.settings.errorRedirects[code], redirect.isLocal else { continue }
                    guard let route = router.route(redirect.path, reaching: failing) else {
                        found[redirect.line, default: Destinations()].undecided = true
                        continue
                    }
                    if route.backend.isSection(failing), failureCodes.contains(code) {
                        found[redirect.line, default: Destinations()].add(
                            .init(
                                "\(entry.kind) '\(entry.name)' routes '\(redirect.path)' back to \(failing.kind) '\(failing.name)', whose failure sent visitors there: while it fails, they are sent to the page again and again",
                                at: route.line))
                    } else if !route.backend.isSection(failing) {
                        found[redirect.line, default: Destinations()].add(
                            .init(
                                "\(entry.kind) '\(entry.name)' routes the page's own request to \(route.backend.kind) '\(route.backend.name)', which must answer it",
                                at: route.line))
                    }
                }
            }
        }
        return found
    }
}
