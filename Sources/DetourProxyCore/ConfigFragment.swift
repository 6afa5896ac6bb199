import DetourDiagnostics
import Foundation

/// A piece of configuration quoted somewhere else (a Markdown code block), read by a checker as
/// a file of its own and its findings moved back to where the piece is written.
public struct ConfigFragment {
    /// How the temporary file is named in the checker's findings.
    public static let displayPath = "fragment.conf"

    public var text: String
    /// Lines put around the text for the checker (the block it is the inside of), or none.
    public var before = ""
    public var after = ""

    public init(_ text: String, before: String = "", after: String = "") {
        self.text = text
        self.before = before
        self.after = after
    }

    /// What `check` finds in the fragment's own lines, located at `path` with the text's first
    /// line at `firstLine` and columns shifted by `indent`; nothing if the file cannot be written.
    public func findings(path: String, firstLine: Int, indent: Int, check: (URL) -> [Diagnostic]) -> [Diagnostic] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("detour-fragment-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(Self.displayPath)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data((before + text + after).utf8).write(to: file)
        } catch {
            return []
        }
        let added = before.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
        return check(file).compactMap { diagnostic in
            guard diagnostic.location.path == Self.displayPath else { return nil }
            var moved = diagnostic
            let line = min(max(diagnostic.location.line - added, 1), lineCount)
            moved.location = SourceLocation(path: path, line: firstLine + line - 1, column: diagnostic.location.column + indent)
            moved.notes = []
            return moved
        }
    }
}
