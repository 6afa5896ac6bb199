/// One rule of `detour check` as the README's table, `--help` and SARIF's rule metadata show
/// it: each dialect lists its rules once, and they are read from there.
public struct RuleDescription: Sendable, Equatable {
    public var id: String
    public var severity: Severity
    /// What the rule looks for, in one line.
    public var summary: String
    /// What visitors would get when it fires.
    public var consequence: String

    public init(_ id: String, _ severity: Severity, summary: String, consequence: String) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.consequence = consequence
    }
}
