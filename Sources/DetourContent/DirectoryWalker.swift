import Foundation

/// Lists the files below a folder with readdir, which reports each entry's type without the
/// stat calls FileManager's enumerator makes. Hidden entries (`.git`, editor swap files) are
/// skipped; symbolic links are listed as files and never followed into folders.
public enum DirectoryWalker {
    /// Paths relative to `root`, sorted, of files whose name ends in one of `suffixes`.
    public static func files(under root: String, suffixes: [String]) -> [String] {
        var found: [String] = []
        walk(root, prefix: "", suffixes: suffixes, into: &found)
        return found.sorted()
    }

    /// Folders exactly `depth` levels below `root` (hidden ones included), relative to it.
    public static func folders(under root: String, depth: Int) -> [String] {
        guard depth > 0 else { return [] }
        var found: [String] = []
        for name in entries(root) where name.isFolder {
            if depth == 1 {
                found.append(name.name)
            } else {
                found += folders(under: root + "/" + name.name, depth: depth - 1).map { name.name + "/" + $0 }
            }
        }
        return found
    }

    private struct Entry {
        var name: String
        var isFolder: Bool
    }

    /// The entries of one folder with their types, `.` and `..` left out.
    private static func entries(_ folder: String) -> [Entry] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name == "." || name == ".." { continue }
            var type = Int32(entry.pointee.d_type)
            if type == Int32(DT_UNKNOWN) {
                var info = stat()
                guard lstat(folder + "/" + name, &info) == 0 else { continue }
                type = (info.st_mode & S_IFMT) == S_IFDIR ? Int32(DT_DIR) : Int32(DT_REG)
            }
            entries.append(Entry(name: name, isFolder: type == Int32(DT_DIR)))
        }
        return entries
    }

    private static func walk(_ folder: String, prefix: String, suffixes: [String], into found: inout [String]) {
        for entry in entries(folder) where !entry.name.hasPrefix(".") {
            if entry.isFolder {
                walk(folder + "/" + entry.name, prefix: prefix + entry.name + "/", suffixes: suffixes, into: &found)
            } else if suffixes.contains(where: { entry.name.lowercased().hasSuffix($0) }) {
                found.append(prefix + entry.name)
            }
        }
    }
}
