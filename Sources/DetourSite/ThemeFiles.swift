import DetourContent
import DetourDiagnostics
import Foundation

/// The theme's files by path: the built-in theme (the repository's `templates/`, built into
/// the binary) with a project's own templates folder laid over it file by file, so a project
/// overrides one template or partial by writing a file of the same name.
struct ThemeFiles {
    /// Shown in diagnostics for a file of the built-in theme.
    static let builtinDisplayRoot = "(built-in theme)"

    private(set) var bytes: [String: [UInt8]] = [:]
    private(set) var displayPaths: [String: String] = [:]
    private(set) var diagnostics: [Diagnostic] = []

    /// - Parameter folderRequired: the folder was named on the command line, so its absence
    ///   is an error; the default `templates` folder may be absent.
    init(folder: URL, displayRoot: String, folderRequired: Bool) {
        for (path, base64) in BuiltinThemeFiles.files {
            bytes[path] = Data(base64Encoded: base64).map(Array.init) ?? []
            displayPaths[path] = Self.builtinDisplayRoot + "/" + path
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            if folderRequired {
                diagnostics.append(.error("template.missing-folder", "templates folder '\(displayRoot)' does not exist", at: SourceLocation(path: displayRoot)))
            }
            return
        }
        let listing = DirectoryWalker.list(folder.path, suffixes: [""])
        // Templates and assets; anything else in the folder (a README, notes) is not the theme's.
        func isThemeFile(_ path: String) -> Bool { path.hasSuffix(".mustache") || path.hasPrefix("assets/") }
        for link in listing.escapingLinks where isThemeFile(link) {
            diagnostics.append(.error("file.path-escape", "'\(link)' links to a file outside \(displayRoot)/; copy the file in instead", at: SourceLocation(path: displayRoot + "/" + link)))
        }
        for path in listing.files where isThemeFile(path) {
            let displayPath = displayRoot + "/" + path
            switch FileBytes.read(folder.appendingPathComponent(path).path) {
            case .success(let contents):
                bytes[path] = contents.bytes
                displayPaths[path] = displayPath
            case .failure(let failure):
                diagnostics.append(SourceFile.unreadable(failure, displayPath: displayPath))
            }
        }
    }

    var paths: [String] { bytes.keys.sorted() }
}
