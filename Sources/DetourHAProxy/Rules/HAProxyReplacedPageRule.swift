import DetourDiagnostics
import DetourProxyCore

/// A section's `errorfile` (`errorfiles`, `http-error`) that replaces detour's page from its
/// defaults with another file, where it answers: a backend's own, or a frontend's wherever
/// its backend has no page of its own (HAProxy looks in the backend first, then the frontend;
/// `http_error_message`, 2.6 source). A line the backend's page shadows answers nobody.
struct HAProxyReplacedPageRule: HAProxyRule {
    static let about = HAProxyRules.replacedPage

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        guard let folder = context.pagesFolder else { return [] }
        // Each file once: thousands of sections name the same few.
        var known: [String: Bool] = [:]
        func isDetours(_ page: HAProxyPage) -> Bool {
            if let answer = known[page.path] { return answer }
            let answer = context.file(of: page).isIn(folder: folder)
            known[page.path] = answer
            return answer
        }
        var reported = Set<SourceLocation>()
        var found: [Diagnostic] = []
        // A frontend that answers every request itself sends no visitor to a page.
        for entry in model.httpEntries where entry.settings.answersEveryRequest == nil {
            let backends = model.backends(of: entry)
            for code in context.pageCodes {
                // The section whose page answers: the backend's own, else the frontend's.
                let answering = backends.isEmpty ? [entry] : backends.map { $0.settings.page(for: code) != nil ? $0 : entry }
                for proxy in answering {
                    // Cheap tests first: most sections keep their defaults' page.
                    guard let page = proxy.settings.page(for: code), let replaced = proxy.inheritedPages[code], replaced.line != page.line,
                        !isDetours(page), isDetours(replaced), reported.insert(page.line).inserted
                    else { continue }
                    found.append(
                        Self.finding(
                            "\(proxy.kind) '\(proxy.name)' answers \(code) with \(context.shown(page, context.file(of: page))) (\(page.directive)) in place of detour's page from its defaults\(proxy.isSection(entry) ? "" : ", for frontend '\(entry.name)'")",
                            at: page.line,
                            notes: [
                                .init("the page it replaces", at: replaced.line),
                                Self.fix("remove this line: the defaults' page answers"),
                            ]))
                }
            }
        }
        return found
    }
}
