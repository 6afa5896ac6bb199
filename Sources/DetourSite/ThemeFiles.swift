import DetourContent
import DetourDiagnostics
import DetourSupport
import DetourYAML
import Foundation

/// The theme's files by path: the built-in theme (the repository's `templates/`, built into
/// the binary) with a project's own templates folder laid over it file by file, so a project
/// overrides one template or partial by writing a file of the same name.
struct ThemeFiles {
    struct File {
        var bytes: [UInt8]
        /// How diagnostics name it: under the project's folder, or the built-in theme's.
        var displayPath: String
    }

    /// Shown in diagnostics for a file of the built-in theme.
    static let builtinDisplayRoot = "(built-in theme)"

    private(set) var files: [String: File] = [:]

    /// The theme, or nothing when `folder` was named on the command line (`folderRequired`) and
    /// does not exist; the default `templates` folder may be absent. Also what went wrong.
    static func gather(folder: URL, displayRoot: String, folderRequired: Bool) -> (ThemeFiles?, [Diagnostic]) {
        var theme = ThemeFiles()
        for (path, base64) in BuiltinThemeFiles.files {
            theme.files[path] = File(bytes: Data(base64Encoded: base64).map(Array.init) ?? [], displayPath: builtinDisplayRoot + "/" + path)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            guard folderRequired else { return (theme, []) }
            return (nil, [.error("template.missing-folder", "templates folder '\(displayRoot)' does not exist", at: SourceLocation(path: displayRoot))])
        }
        var diagnostics: [Diagnostic] = []
        let listing = DirectoryWalker.list(folder.path, suffixes: [""])
        // Templates and assets; anything else in the folder (a README, notes) is not the theme's.
        func isThemeFile(_ path: String) -> Bool { path.hasSuffix(".mustache") || path.hasPrefix("assets/") }
        for link in listing.escapingLinks where isThemeFile(link) {
            diagnostics.append(
                .error(
                    "file.path-escape", "'\(link)' links to a file outside \(displayRoot)/; copy the file in instead",
                    at: SourceLocation(path: displayRoot + "/" + link)))
        }
        for path in listing.files where isThemeFile(path) {
            let displayPath = displayRoot + "/" + path
            switch FileBytes.read(folder.appendingPathComponent(path).path) {
            case .success(let contents):
                theme.files[path] = File(bytes: contents.bytes, displayPath: displayPath)
            case .failure(let failure):
                diagnostics.append(SourceFile.unreadable(failure, displayPath: displayPath))
            }
        }
        return (theme, diagnostics)
    }
}
