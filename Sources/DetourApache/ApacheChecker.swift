import DetourDiagnostics
import DetourProxyCore
import DetourSupport
import Foundation

/// `detour check apache`: reads the configuration as Apache 2.4 does, merges each virtual
/// host with the main server, follows every ErrorDocument through Alias, DocumentRoot and
/// ProxyPass to what visitors get, and tells which page answers each code.
public enum ApacheChecker: ProxyDialect {
    public static let name = "apache"
    public static let siteNoun = "virtual host"

    static let rules: [any ApacheRule] = [
        ApacheMissingPageRule(), ApacheURLTargetRule(), ApacheTextTargetRule(), ApacheProxiedPageRule(),
        ApacheUpstreamPassThroughRule(), ApacheCodeNotCoveredRule(), ApacheProtectedPageRule(),
    ]

    /// Every rule it reports (`ApacheRules`): the README's table, `--list-rules` and SARIF.
    public static let catalogue: [RuleDescription] = ApacheRules.all

    public static func check(_ options: ProxyCheck.Options) -> ProxyCheck.Report {
        check(options, environment: ProcessInfo.processInfo.environment)
    }

    static func check(_ options: ProxyCheck.Options, environment: [String: String]) -> ProxyCheck.Report {
        let config = ApacheConfig.load(main: options.main, display: options.mainDisplay, serverRoot: options.serverRoot, environment: environment)
        // What Apache refuses, all of it (the server names the first, whichever it is): in the
        // files' shape, in a directive's words, and in the directives the model reads (an
        // ErrorDocument's arguments). The model is read only from files of a sound shape.
        guard config.diagnostics.isEmpty else {
            return ProxyCheck.Report(diagnostics: config.diagnostics + config.directiveRefusals, coverage: [], files: config.files)
        }
        let model = ApacheModel(config)
        let refusals = config.directiveRefusals + model.diagnostics
        guard refusals.isEmpty else { return ProxyCheck.Report(diagnostics: refusals, coverage: [], files: config.files) }
        let context = ApacheCheckContext(pageCodes: PageFolder.codes(in: options.pages), pageFiles: PageFileLookup(maps: options.maps))
        // Sites share nothing once merged with the main server: each is modelled, checked and
        // tabulated in one task. A site is whole only once everything is read (the main server's
        // directives after a virtual host still reach it), so they are checked together.
        let driver = SiteDriver { (scope: ApacheScope) -> (coverage: SiteCoverage, diagnostics: [Diagnostic]) in
            let site = ApacheSite(scope, in: context)
            return (site.model.coverage, rules.flatMap { $0.check(site, in: context) })
        }
        let checked = driver.run(model.sites)
        let diagnostics = checked.flatMap(\.diagnostics)
        let coverage = checked.map(\.coverage)
        // Freeing thousands of sites takes longer than printing the report: they go with it.
        return ProxyCheck.Report(
            diagnostics: diagnostics, coverage: coverage, files: config.files, built: (config, model, checked), pageFiles: context.pageFiles.files)
    }
}
