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

    private static func walk(_ folder: String, prefix: String, suffixes: [String], into found: inout [String]) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name.hasPrefix(".") { continue }
            var type = Int32(entry.pointee.d_type)
            if type == Int32(DT_UNKNOWN) {
                var info = stat()
                guard lstat(folder + "/" + name, &info) == 0 else { continue }
                type = (info.st_mode & S_IFMT) == S_IFDIR ? Int32(DT_DIR) : Int32(DT_REG)
            }
            if type == Int32(DT_DIR) {
                walk(folder + "/" + name, prefix: prefix + name + "/", suffixes: suffixes, into: &found)
            } else if suffixes.contains(where: { name.lowercased().hasSuffix($0) }) {
                found.append(prefix + name)
            }
        }
    }
}
