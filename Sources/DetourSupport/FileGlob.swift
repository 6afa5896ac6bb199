import Glibc

/// The files a wildcard pattern names, as the C library's glob(3) lists them (sorted by the
/// locale's collation); none when nothing matches. nginx globs its includes this way; Caddy
/// sorts its imports' matches byte by byte on top.
public enum FileGlob {
    public static func matches(_ pattern: String) -> [String] {
        var found = glob_t()
        defer { globfree(&found) }
        guard glob(pattern, 0, nil, &found) == 0 else { return [] }
        return (0..<Int(found.gl_pathc)).compactMap { found.gl_pathv[$0].map { String(cString: $0) } }
    }

    /// Whether `pattern` holds a wildcard glob(3) expands.
    public static func hasWildcard(_ pattern: String) -> Bool {
        pattern.contains { $0 == "*" || $0 == "?" || $0 == "[" }
    }
}
