import DetourContent
import DetourDiagnostics
import Synchronization

/// Content files a page read again and found changed since the build checked them: the build
/// stops, as the site would no longer be the content it checked.
final class ChangedFiles: Sendable {
    private let found = Mutex<[Diagnostic]>([])

    func add(_ displayPath: String) {
        found.withLock { $0.append(.contentChanged(displayPath)) }
    }

    var diagnostics: [Diagnostic] { found.withLock { $0 } }
}
