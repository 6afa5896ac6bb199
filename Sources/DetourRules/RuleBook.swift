import DetourApache
import DetourCaddy
import DetourDiagnostics
import DetourHAProxy
import DetourLayout
import DetourLogs
import DetourNginx
import DetourProxyCore
import DetourSupport
import DetourVarnish

/// Every rule detour reports, each once, grouped by what it reads: the five servers' checks
/// and the content's. `--explain`, the help site's rule pages and the help links of findings
/// are made from it.
public enum RuleBook {
    /// A group of rules as the rule pages list them: a server's, or the content's.
    public struct Topic: Sendable {
        /// `nginx`, … `content`: the word `detour check` takes, or `content`.
        public var name: String
        public var title: String
        public var rules: [RuleDescription]
    }

    /// The servers `detour check` reads, in the order `--list-rules` shows them. Computed: a
    /// stored list of metatypes would be shared state to Swift 6's checker.
    public static var dialects: [any ProxyDialect.Type] {
        [NginxChecker.self, CaddyChecker.self, HAProxyChecker.self, ApacheChecker.self, VarnishChecker.self]
    }

    /// What `detour check` reports, server by server.
    public static var checkRules: [RuleDescription] { dialects.flatMap { $0.catalogue } }

    /// What `detour build` reports about content, templates and the output.
    public static let contentRules: [RuleDescription] = ContentRules.all

    /// The servers' rules, one topic each in `dialects`' order, then the content's.
    public static let topics: [Topic] =
        dialects.map { Topic(name: $0.name, title: LogConfirmation.name($0.name), rules: $0.catalogue) }
        + [Topic(name: contentTopic, title: "Content, templates and the build", rules: ContentRules.all)]

    /// The topic of `detour build`'s rules.
    public static let contentTopic = "content"

    public static let all: [RuleDescription] = topics.flatMap(\.rules)

    private static let byID: [String: RuleDescription] = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

    public static func rule(_ id: String) -> RuleDescription? { byID[id] }

    /// The id closest to a misspelt one, for "did you mean".
    public static func closest(to id: String) -> String? { Suggestion.closest(to: id, among: all.map(\.id)) }

    /// The topic a rule is listed under.
    public static func topic(of id: String) -> Topic? { topics.first { $0.rules.contains { $0.id == id } } }

    /// The help links of findings: each rule of the book on the help site at `base_url`
    /// (nil: the site is unknown, and text findings name `detour check --explain` instead).
    public static func helpLinks(baseURL: String?) -> HelpLinks {
        HelpLinks(pages: baseURL.map { $0 + SiteLayout.rules }, rules: Set(all.map(\.id)))
    }
}
