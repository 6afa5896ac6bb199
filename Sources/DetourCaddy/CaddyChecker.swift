import DetourDiagnostics
import DetourProxyCore
import Foundation

/// `detour check caddy`: reads the Caddyfile as Caddy does, follows every `handle_errors`
/// route to the file it sends, runs the rules and tells which file answers each code.
public enum CaddyChecker: ProxyDialect {
    public static let name = "caddy"
    public static let siteNoun = "site"

    static let rules: [any CaddyRule] = [
        CaddyMissingPageFileRule(), CaddyErrorsWithoutResponseRule(), CaddyUpstreamPassThroughRule(), CaddyCodeNotCoveredRule(),
        CaddySoftStatusRule(), CaddyStatusAsMessageRule(), CaddyRespondShadowsFileServerRule(), CaddyErrorPageProtectedRule(), CaddyProxiedPageRule(),
    ]

    /// Every rule `detour check caddy` reports.
    /// Every rule it reports (`CaddyRules`): the README's table, `--list-rules` and SARIF.
    public static let catalogue: [RuleDescription] = CaddyRules.all

    /// Reads for `options.serverVersion`, else the installed Caddy, else 2.6.
    public static func check(_ options: ProxyCheck.Options) -> ProxyCheck.Report {
        check(options, version: CaddyVersionSource(options.serverVersion.flatMap(CaddyVersion.init)))
    }

    /// `version`: the Caddy to read for (heredocs, `{args[N]}`, directives).
    static func check(_ options: ProxyCheck.Options, version: CaddyVersionSource) -> ProxyCheck.Report {
        let files = SourceFiles()
        let context = CaddyCheckContext(pageCodes: PageFolder.codes(in: options.pages), maps: options.maps, files: files)
        let reading = CaddyConfig(files: files, blocks: [], diagnostics: [], version: version)
        // Sites share nothing: each is read for unknown directives, modelled, checked and
        // tabulated in one task, on the other cores while the rest of the Caddyfile is read.
        let driver = SiteDriver { (block: CaddySiteBlock) -> (directives: [Diagnostic], rules: [Diagnostic], coverage: SiteCoverage?) in
            // A '}' read as an address is a brace out of place, not a site: Caddy refuses the file.
            guard !block.hasStrayBrace else { return (CaddyDirectiveCheck.check(block, reading), [], nil) }
            var site = CaddySite(block)
            site.resolve(in: context)
            return (CaddyDirectiveCheck.check(block, reading), rules.flatMap { $0.check(site, in: context) }, site.model.coverage)
        }
        let config = CaddyConfig.load(main: options.main, displayPath: options.mainDisplay, version: version, files: files, onSite: driver.submit)
        let checked = driver.finish()
        var diagnostics = config.diagnostics
        // Past a reading error the blocks are a guess, as Caddy stops there.
        guard diagnostics.isEmpty else { return ProxyCheck.Report(diagnostics: diagnostics, coverage: [], files: files.all) }
        // Caddy's own refusals first, as Caddy would stop at them.
        diagnostics +=
            CaddyGlobalOptions.check(config) + CaddySiteAddresses.ambiguous(config) + CaddySiteAddresses.unqualifiedSubjects(config)
            + checked.flatMap(\.directives) + checked.flatMap(\.rules)
        return ProxyCheck.Report(
            diagnostics: diagnostics, coverage: checked.compactMap(\.coverage), files: files.all, built: (config, checked), pageFiles: context.pageFiles.files)
    }
}
