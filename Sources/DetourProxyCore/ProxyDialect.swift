import DetourDiagnostics

/// A server whose configuration `detour check` reads: its name on the command line, its
/// rules, and its checker. The command knows dialects only through this.
public protocol ProxyDialect {
    /// `nginx`, `caddy`: the word after `detour check`.
    static var name: String { get }
    /// What the coverage table calls one of its sites: an nginx `server`, a Caddy `site`.
    static var siteNoun: String { get }
    /// Every rule it reports, for `--list-rules`, `--help` and SARIF.
    static var catalogue: [RuleDescription] { get }
    static func check(_ options: ProxyCheck.Options) -> ProxyCheck.Report
}
