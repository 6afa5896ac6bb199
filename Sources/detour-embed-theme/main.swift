import Foundation

// Writes every file under a folder (hidden ones skipped, as the build skips them in a project's
// templates/) into one Swift source, as `BuiltinThemeFiles.files`:
// (path relative to the folder, contents in base64), sorted by path. Run by the EmbedTheme
// build plugin; usage: detour-embed-theme <templates folder> <output.swift>.
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: detour-embed-theme <folder> <output.swift>\n".utf8))
    exit(64)
}
let root = URL(fileURLWithPath: arguments[1]).standardizedFileURL
var entries: [(path: String, contents: Data)] = []
if let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey], options: .skipsHiddenFiles) {
    for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
        let path = String(file.standardizedFileURL.path.dropFirst(root.path.count + 1))
        entries.append((path, try Data(contentsOf: file)))
    }
}
var source = """
// Generated from templates/ by the EmbedTheme build plugin; not kept in git.

enum BuiltinThemeFiles {
    /// Each file of the built-in theme: its path under templates/ and its bytes in base64.
    static let files: [(path: String, base64: String)] = [

"""
for entry in entries.sorted(by: { $0.path < $1.path }) {
    let path = entry.path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    source += "        (\"\(path)\", \"\(entry.contents.base64EncodedString())\"),\n"
}
source += "    ]\n}\n"
try Data(source.utf8).write(to: URL(fileURLWithPath: arguments[2]))
