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
        guard config.diagnostics.isEmpty else { return ProxyCheck.Report(diagnostics: config.diagnostics, coverage: [], files: config.files) }
        let model = ApacheModel(config)
        guard model.diagnostics.isEmpty else { return ProxyCheck.Report(diagnostics: model.diagnostics, coverage: [], files: config.files) }
        let pageCodes = PageFolder.codes(in: options.pages)
        let sites = model.sites
        let context = ApacheCheckContext(
            pageCodes: pageCodes, pageFiles: PageFileLookup(maps: options.maps), answers: sites.map { ApacheCoverage.answers($0, codes: pageCodes) })
        // Each rule reads the model alone: they run side by side.
        let diagnostics = rules.concurrentMap { $0.check(model, in: context) }.flatMap { $0 }
        let coverage = zip(sites, context.answers).map { scope, answers in
            SiteCoverage(name: scope.isVirtualHost ? scope.name : "(main server)", location: scope.location, answers: answers)
        }
        let files = config.files
        // Freeing thousands of sites takes longer than printing the report: another thread
        // does it, and the process may end first.
        let leftovers = (consume config, consume model, consume sites, consume context)
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(leftovers) {} }
        return ProxyCheck.Report(diagnostics: diagnostics, coverage: coverage, files: files)
    }
}
