import DetourDiagnostics
import DetourProxyCore
import Foundation

/// A quoted piece of Caddy, HAProxy or Apache configuration read by that server's checker as a
/// file of its own, wrapped in the block it needs when it is only a block's inside; what the
/// server would refuse (its syntax and directive rules) is kept, moved to the Markdown file.
struct ServerFragment {
    var dialect: any ProxyDialect.Type
    /// Rules of refusals; every other finding needs a whole configuration.
    var refusalRules: Set<String>
    /// Lines to put around a fragment that is a block's inside, or nil when it is whole.
    var wrap: (String) -> (before: String, after: String)?

    func check(_ text: String, path: String, firstLine: Int, indent: Int) -> [Diagnostic] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("detour-fragment-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("fragment.conf")
        let wrapping = wrap(text)
        let added = wrapping.map { $0.before.split(separator: "\n", omittingEmptySubsequences: false).count - 1 } ?? 0
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(((wrapping?.before ?? "") + text + (wrapping?.after ?? "")).utf8).write(to: file)
        } catch {
            return []
        }
        let options = ProxyCheck.Options(main: file, mainDisplay: "fragment.conf", pages: nil, maps: [])
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
        return dialect.check(options).diagnostics.compactMap { diagnostic in
            guard refusalRules.contains(diagnostic.rule), diagnostic.location.path == "fragment.conf" else { return nil }
            var moved = diagnostic
            let line = min(max(diagnostic.location.line - added, 1), lineCount)
            moved.location = SourceLocation(path: path, line: firstLine + line - 1, column: diagnostic.location.column + indent)
            moved.notes = []
            return moved
        }
    }
}
