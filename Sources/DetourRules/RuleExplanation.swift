import DetourDiagnostics

/// What `detour check --explain <rule>` prints and a rule page shows: what the rule looks
/// for, what visitors get when it fires, the hit and the near miss the tests hold with what
/// `detour check` says of the hit.
public struct RuleExplanation: Sendable {
    /// A file longer than this is named with its size, not shown (HAProxy's oversized errorfile).
    public static let longestShown = 4096

    public var rule: RuleDescription
    /// The topic it is listed under: its server's, or the content's.
    public var topic: RuleBook.Topic
    public var hit: RuleExample?
    public var nearMiss: RuleExample?

    public init?(_ id: String) {
        guard let rule = RuleBook.rule(id), let topic = RuleBook.topic(of: id) else { return nil }
        self.rule = rule
        self.topic = topic
        hit = RuleExample.hit(of: id)
        nearMiss = RuleExample.nearMiss(of: id)
    }

    /// "An error_page URI leads to a file that does not exist."
    public var sentence: String { Self.sentence(rule.summary) }

    /// "A 404 instead of the error page."
    public var consequenceSentence: String { Self.sentence(rule.consequence) }

    private static func sentence(_ text: String) -> String {
        guard let first = text.first else { return "" }
        return first.uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }

    /// What the consequence tells: what visitors get of a server's rule, what the build does of a content one.
    public var consequenceHeading: String { topic.name == RuleBook.contentTopic ? "What happens" : "What visitors get" }

    /// The file as shown: its text, or its size where it is too long to read in a terminal.
    public static func shown(_ file: RuleExample.File) -> String {
        file.text.utf8.count > longestShown ? "(\(file.text.utf8.count) bytes, not shown)\n" : file.text
    }

    /// Plain text for a terminal, indented blocks for configuration and output as
    /// `rustc --explain` prints them; `page` is the rule's page on the help site, when known.
    public func text(page: String?) -> String {
        var out = "\(rule.id) (\(rule.severity.rawValue), \(topic.title))\n\n\(sentence)\n\n"
        out += "\(consequenceHeading): \(consequenceSentence)\n"
        if let hit {
            out += "\nA configuration it fires on:\n"
            for file in hit.files { out += "\n  \(file.name):\n\n" + Self.indented(Self.shown(file)) }
            if !hit.output.isEmpty { out += "\ndetour check --verbose says:\n\n" + Self.indented(hit.output) }
        }
        if let nearMiss {
            out += "\nThe near miss, which works and is not reported:\n"
            for file in nearMiss.files { out += "\n  \(file.name):\n\n" + Self.indented(Self.shown(file)) }
        }
        if let page { out += "\nOn the help site: \(page)\n" }
        return out
    }

    private static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
            .map { $0.isEmpty ? "" : "      " + $0 }.joined(separator: "\n") + "\n"
    }
}
