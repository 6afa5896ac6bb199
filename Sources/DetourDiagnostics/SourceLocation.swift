/// A place in a user's file: project-relative path, 1-based line and column.
public struct SourceLocation: Hashable, Sendable, Comparable, Codable {
    public var path: String
    public var line: Int
    public var column: Int

    public init(path: String, line: Int = 1, column: Int = 1) {
        self.path = path
        self.line = max(line, 1)
        self.column = max(column, 1)
    }

    /// The location `lines` lines below this one; used to map positions inside embedded
    /// text (front matter, YAML block scalars) back onto the file.
    public func shifted(lines: Int, column newColumn: Int? = nil) -> SourceLocation {
        SourceLocation(path: path, line: line + lines, column: newColumn ?? column)
    }

    public var description: String { "\(path):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }
}
