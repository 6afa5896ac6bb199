import DetourDiagnostics
import Synchronization

/// Content files a page read again and found changed since the build checked them: the build
/// stops, as the site would no longer be the content it checked.
final class ChangedFiles: Sendable {
    private let found = Mutex<[Diagnostic]>([])

    func add(_ displayPath: String) {
        let diagnostic = Diagnostic.error(
            "build.content-changed", "'\(displayPath)' changed while the site was being built; build again", at: SourceLocation(path: displayPath))
        found.withLock { $0.append(diagnostic) }
    }

    var diagnostics: [Diagnostic] { found.withLock { $0 } }
}
