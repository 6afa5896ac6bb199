import DetourDiagnostics
import DetourProxyCore
import Foundation

/// A piece of nginx configuration quoted in documentation, read as `nginx -t` reads a file:
/// syntax, directive names, places and arguments. A fragment is read in the first context that
/// takes all its directives (a block of `proxy_*` lines as a location's), and what only a whole
/// configuration has (`events`, the files `include` names, variables set elsewhere) is not asked.
public enum NginxFragmentCheck {
    /// Problems in `text`, located at `path` with line 1 of the text at `firstLine` and
    /// columns shifted by `indent`.
    public static func check(_ text: String, path: String, firstLine: Int, indent: Int = 0) -> [Diagnostic] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("detour-fragment-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("fragment.conf")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        } catch {
            return []
        }
        let loaded = NginxConfigLoader(main: file, displayPath: "fragment.conf").load()
        let syntax = loaded.diagnostics.filter { $0.rule == NginxRules.syntax.id }
        let directives = NginxDirectiveCheck.check(loaded.config, syntaxErrors: loaded.diagnostics).filter { diagnostic in
            diagnostic.rule == NginxRules.directive.id && !diagnostic.message.hasPrefix("no \"events\" section")
                && !(diagnostic.message.hasPrefix("unknown \"") && diagnostic.message.hasSuffix("\" variable"))
        }
        return (syntax + directives).map { diagnostic in
            var moved = diagnostic
            moved.location = SourceLocation(
                path: path, line: firstLine + diagnostic.location.line - 1, column: diagnostic.location.column + indent)
            moved.notes = []
            return moved
        }
    }
}
