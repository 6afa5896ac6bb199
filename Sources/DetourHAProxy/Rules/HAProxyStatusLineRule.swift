import DetourDiagnostics
import DetourProxyCore

/// The status line written in the file is not the code it is for: HAProxy sends the file as it
/// is, so visitors (and crawlers and monitors) get the file's status, even a 200. Only a page
/// that answers some visitor counts.
struct HAProxyStatusLineRule: HAProxyRule {
    static let about = HAProxyRules.errorfileStatusLine

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        // A page for HAProxy's own errors that a backend's own page shadows reaches nobody;
        // a `return` rule's page is sent whenever its rule applies.
        return model.pages.filter { $0.kind == .response && (context.answering.contains($0.line) || $0.directive.hasSuffix(" return")) }.compactMap { page in
            guard let (file, problems) = context.errorFile(page, in: model),
                let written = problems.lazy.compactMap({ problem -> Int? in
                    if case .statusLine(let status) = problem { status } else { nil }
                }).first
            else { return nil }
            return Self.finding(
                "\(page.directive) for \(page.code) sends \(context.shown(page, file)), whose status line says \(written): HAProxy sends it as written, so visitors get \(written) instead of \(page.code); haproxy -c passes it",
                at: page.pathLocation,
                notes: [
                    Self.fix("use detour's errors/\(page.code).http for \(page.code)")
                ])
        }
    }
}
