import Foundation

// Writes the files under a folder (hidden ones skipped, as the build skips them in a project),
// or one file, into one Swift source, as `<Name>.files`: (path relative to the folder, contents in base64),
// sorted by path. With prefixes, only the paths that start with one of them. Run by the
// EmbedTheme, EmbedStarter, EmbedNginxDirectives and EmbedVersion build plugins;
// usage: detour-embed <folder or file> <output.swift> <Name> [path prefix…].
let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: detour-embed <folder or file> <output.swift> <Name> [path prefix…]\n".utf8))
    exit(64)
}
let root = URL(fileURLWithPath: arguments[1]).standardizedFileURL
let name = arguments[3]
let prefixes = arguments.dropFirst(4)
var entries: [(path: String, contents: Data)] = []
var isFolder: ObjCBool = false
if FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), !isFolder.boolValue {
    // One file (`VERSION`): itself, under its own name.
    entries.append((root.lastPathComponent, try Data(contentsOf: root)))
} else if let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey], options: .skipsHiddenFiles) {
    for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
        let path = String(file.standardizedFileURL.path.dropFirst(root.path.count + 1))
        guard prefixes.isEmpty || prefixes.contains(where: { path.hasPrefix($0) }) else { continue }
        entries.append((path, try Data(contentsOf: file)))
    }
}
var source = """
    // Generated from \(root.lastPathComponent)\(isFolder.boolValue ? "/" : "") by a detour build plugin; not kept in git.

    enum \(name) {
        /// Each embedded file: its path under \(root.lastPathComponent)/ and its bytes in base64.
        static let files: [(path: String, base64: String)] = [

    """
for entry in entries.sorted(by: { $0.path < $1.path }) {
    let path = entry.path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    source += "        (\"\(path)\", \"\(entry.contents.base64EncodedString())\"),\n"
}
source += "    ]\n}\n"
try Data(source.utf8).write(to: URL(fileURLWithPath: arguments[2]))
