/// One problem with user input. Problems are values: collected, sorted and printed together.
public struct Diagnostic: Hashable, Sendable, Codable, Error {
    /// A secondary location that explains the main one ("first defined here").
    public struct Note: Hashable, Sendable, Codable {
        public var message: String
        public var location: SourceLocation?

        public init(_ message: String, at location: SourceLocation? = nil) {
            self.message = message
            self.location = location
        }
    }

    public var severity: Severity
    public var rule: String
    public var message: String
    public var location: SourceLocation
    public var notes: [Note]
    /// The statuses a finding about several is about (a code left uncovered), for tools and for
    /// judging it against what the real server answered; nil where it is about no status.
    public var codes: [Int]?

    public init(
        _ severity: Severity, _ rule: String, _ message: String, at location: SourceLocation, notes: [Note] = [], codes: [Int]? = nil
    ) {
        self.severity = severity
        self.rule = rule
        self.message = message
        self.location = location
        self.notes = notes
        self.codes = codes
    }

    public static func error(_ rule: String, _ message: String, at location: SourceLocation, notes: [Note] = []) -> Diagnostic {
        Diagnostic(.error, rule, message, at: location, notes: notes)
    }

    public static func warning(_ rule: String, _ message: String, at location: SourceLocation, notes: [Note] = []) -> Diagnostic {
        Diagnostic(.warning, rule, message, at: location, notes: notes)
    }
}

extension Array where Element == Diagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }

    /// Each finding once, in first-seen order: a line read in several places (an included
    /// file, a main-server directive in every virtual host) is reported once.
    public func removingDuplicates() -> [Diagnostic] {
        var seen = Set<Diagnostic>()
        return filter { seen.insert($0).inserted }
    }

    /// Stable order for output: by file, then position, then rule.
    public func sortedForOutput() -> [Diagnostic] {
        sorted { ($0.location, $0.rule, $0.message) < ($1.location, $1.rule, $1.message) }
    }
}
