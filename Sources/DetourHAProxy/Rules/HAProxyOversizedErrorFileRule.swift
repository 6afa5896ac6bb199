import DetourDiagnostics
import DetourProxyCore

/// A file over `tune.bufsize − tune.maxrewrite`: `haproxy -c` says nothing, a real start warns,
/// and an `http-after-response` rule that adds more than the room left makes HAProxy answer
/// its own 500 instead of the page.
struct HAProxyOversizedErrorFileRule: HAProxyRule {
    static let about = HAProxyRules.errorfileOversized

    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic] {
        let rewriting = model.proxies.lazy.compactMap(\.settings.afterResponse).first
        return model.pages.filter { $0.kind == .response }.compactMap { page in
            guard let (file, problems) = context.errorFile(page, in: model),
                let (size, limit) = problems.lazy.compactMap({ problem -> (Int, Int)? in
                    if case .overRewriteSpace(let size, let limit) = problem { (size, limit) } else { nil }
                }).first
            else { return nil }
            var notes: [Diagnostic.Note] = []
            if let rewriting { notes.append(.init("this http-after-response rule rewrites error pages too", at: rewriting)) }
            notes.append(Self.fix("keep the page under \(limit) bytes, or raise tune.bufsize in global"))
            return Self.finding(
                "\(page.directive) for \(page.code) sends \(context.shown(page, file)), \(size) bytes, over the \(limit) bytes left for header rewriting (tune.bufsize − tune.maxrewrite): an http-after-response rule whose headers do not fit in the rest of the buffer makes HAProxy answer its own 500 instead; haproxy -c says nothing, a start warns",
                at: page.pathLocation, notes: notes)
        }
    }
}
