/// Paths as diagnostics show them.
public enum DisplayPath {
    /// Folds `.` and `..` without touching the file system; nil when the path climbs above
    /// its start (`../x` from the project root).
    public static func normalize(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard let last = parts.last, last != ".." else {
                    if path.hasPrefix("/") { continue }
                    return nil
                }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}
