import DetourDiagnostics

/// One site (an nginx `server`, a Caddy site block) and, per code, what answers it: the
/// table `detour check` ends with.
public struct SiteCoverage: Sendable, Encodable {
    /// `example.com`, or what else names the site.
    public var name: String
    /// Where the site is defined.
    public var location: SourceLocation
    /// Code → the file (as checked here) or route that answers it; nil when none does.
    public var answers: [(code: Int, answer: String?)]

    public init(name: String, location: SourceLocation, answers: [(code: Int, answer: String?)]) {
        self.name = name
        self.location = location
        self.answers = answers
    }

    private enum Keys: String, CodingKey { case name, location, answers }
    private struct Answer: Encodable {
        var code: Int
        /// null when nothing answers the code.
        var answer: String?
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(code, forKey: .code)
            try container.encode(answer, forKey: .answer)
        }
        enum CodingKeys: String, CodingKey { case code, answer }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(name, forKey: .name)
        try container.encode(location, forKey: .location)
        try container.encode(answers.map { Answer(code: $0.code, answer: $0.answer) }, forKey: .answers)
    }
}
