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
        ConfigFragment(text).findings(path: path, firstLine: firstLine, indent: indent) { file in
            let loaded = NginxConfigLoader(main: file, displayPath: ConfigFragment.displayPath).load()
            let syntax = loaded.diagnostics.filter { $0.rule == NginxRules.syntax.id }
            return syntax + NginxDirectiveCheck.check(loaded.config, syntaxErrors: loaded.diagnostics, wholeConfiguration: false)
        }
    }
}
