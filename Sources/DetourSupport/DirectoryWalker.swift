import Foundation

/// Lists the files below a folder with readdir, which reports each entry's type without the
/// stat calls FileManager's enumerator makes. Hidden entries (`.git`, editor swap files) are
/// skipped; symbolic links are never followed into folders, and a link to a file outside the
/// folder is set apart so nothing outside the project is read.
public enum DirectoryWalker {
    public struct Listing {
        /// Paths relative to the root, sorted.
        public var files: [String] = []
        /// Links whose target lies outside the root, relative to it, sorted.
        public var escapingLinks: [String] = []
    }

    /// The files below `root` (or below its subfolder `below`) whose name ends in one of
    /// `suffixes`; paths are relative to `root`, and links must stay inside `root`.
    public static func list(_ root: String, suffixes: [String], below: String? = nil) -> Listing {
        var listing = Listing()
        let resolvedRoot =
            realpath(root, nil).map { pointer in
                defer { free(pointer) }
                return String(cString: pointer)
            } ?? root
        let start = below.map { root + "/" + $0 } ?? root
        walk(start, prefix: below.map { $0 + "/" } ?? "", suffixes: suffixes, resolvedRoot: resolvedRoot, into: &listing)
        listing.files.sort()
        listing.escapingLinks.sort()
        return listing
    }

    /// Paths relative to `root`, sorted, of files whose name ends in one of `suffixes`.
    public static func files(under root: String, suffixes: [String]) -> [String] {
        list(root, suffixes: suffixes).files
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
        var isLink: Bool
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
                switch info.st_mode & S_IFMT {
                case S_IFDIR: type = Int32(DT_DIR)
                case S_IFLNK: type = Int32(DT_LNK)
                default: type = Int32(DT_REG)
                }
            }
            entries.append(Entry(name: name, isFolder: type == Int32(DT_DIR), isLink: type == Int32(DT_LNK)))
        }
        return entries
    }

    private static func walk(_ folder: String, prefix: String, suffixes: [String], resolvedRoot: String, into listing: inout Listing) {
        for entry in entries(folder) where !entry.name.hasPrefix(".") {
            if entry.isFolder {
                walk(folder + "/" + entry.name, prefix: prefix + entry.name + "/", suffixes: suffixes, resolvedRoot: resolvedRoot, into: &listing)
            } else if suffixes.contains(where: { entry.name.lowercased().hasSuffix($0) }) {
                if entry.isLink, let target = realpath(folder + "/" + entry.name, nil) {
                    defer { free(target) }
                    if !String(cString: target).hasPrefix(resolvedRoot + "/") {
                        listing.escapingLinks.append(prefix + entry.name)
                        continue
                    }
                }
                listing.files.append(prefix + entry.name)
            }
        }
    }
}
