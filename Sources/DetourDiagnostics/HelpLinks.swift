/// Where a finding's rule is explained: its page on the help site, or offline the command
/// that prints the same text. Text findings carry it as one line, JSON as `help`, SARIF as
/// the rule's `helpUri`.
public struct HelpLinks: Sendable {
    /// The folder of rule pages (`https://help.example.com/rules/`); nil where no help site is known.
    public var pages: String?
    /// The rules that have a page.
    public var rules: Set<String>

    public static let none = HelpLinks(pages: nil, rules: [])

    public init(pages: String?, rules: Set<String>) {
        self.pages = pages
        self.rules = rules
    }

    /// The rule's page, when the site is known and the rule has one.
    public func url(_ rule: String) -> String? {
        guard rules.contains(rule), let pages else { return nil }
        return pages + rule + "/"
    }

    /// What a text finding's help line shows: the page, else the command that explains it.
    public func line(_ rule: String) -> String? {
        guard rules.contains(rule) else { return nil }
        return url(rule) ?? "detour check --explain \(rule)"
    }
}
