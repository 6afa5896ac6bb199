import DetourDiagnostics
import DetourProxyCore
import Foundation

/// `detour check caddy`: reads the Caddyfile as Caddy does, follows every `handle_errors`
/// route to the file it sends, runs the rules and tells which file answers each code.
public enum CaddyChecker: ProxyDialect {
    public static let name = "caddy"
    public static let siteNoun = "site"

    static let rules: [any CaddyRule] = [
        CaddyMissingPageFileRule(), CaddyErrorsWithoutResponseRule(), CaddyUpstreamPassThroughRule(), CaddyUncoveredCodeRule(),
        CaddySoftStatusRule(), CaddyStatusAsMessageRule(), CaddyRespondShadowsFileServerRule(), CaddyErrorPageProtectedRule(), CaddyProxiedPageRule(),
    ]

    /// Every rule `detour check caddy` reports.
    public static let catalogue: [RuleDescription] = [
        RuleDescription("caddy.syntax", .error, summary: "a Caddyfile Caddy cannot read, in Caddy's words", consequence: "Caddy refuses to start"),
        RuleDescription("caddy.directive", .error, summary: "a directive the Caddy read for does not know, or arguments it refuses (status codes after handle_errors before 2.8)",
                        consequence: "Caddy refuses to start"),
        RuleDescription("caddy.import", .error, summary: "the Caddyfile cannot be read", consequence: "Caddy refuses to start"),
    ] + rules.map { type(of: $0).about }

    /// Reads for `options.serverVersion`, else the installed Caddy, else 2.6.
    public static func check(_ options: ProxyCheck.Options) -> ProxyCheck.Report {
        check(options, version: CaddyVersionSource(options.serverVersion.flatMap(CaddyVersion.init)))
    }

    /// `version`: the Caddy to read for (heredocs, `{args[N]}`, directives).
    static func check(_ options: ProxyCheck.Options, version: CaddyVersionSource) -> ProxyCheck.Report {
        let config = CaddyConfig.load(main: options.main, displayPath: options.mainDisplay, version: version)
        var diagnostics = config.diagnostics
        // Past a reading error the blocks are a guess, as Caddy stops there.
        guard diagnostics.isEmpty else { return ProxyCheck.Report(diagnostics: diagnostics, coverage: [], files: config.files) }
        let context = CaddyCheckContext(pageCodes: PageFolder.codes(in: options.pages), maps: options.maps, files: config.files)
        // Sites share nothing: each is read for unknown directives, modelled, checked and
        // tabulated in one task, over the cores.
        let checked = config.sites.concurrentMap { block -> (directives: [Diagnostic], rules: [Diagnostic], coverage: SiteCoverage) in
            var site = CaddySite(block)
            site.resolve(in: context)
            return (CaddyDirectiveCheck.check(block, config), rules.flatMap { $0.check(site, in: context) }, site.model.coverage)
        }
        // Caddy's own refusals first, as Caddy would stop at them.
        diagnostics += checked.flatMap(\.directives) + checked.flatMap(\.rules)
        let coverage = checked.map(\.coverage)
        var seen = Set<Diagnostic>()
        return ProxyCheck.Report(diagnostics: diagnostics.filter { seen.insert($0).inserted }, coverage: coverage, files: config.files)
    }

}
