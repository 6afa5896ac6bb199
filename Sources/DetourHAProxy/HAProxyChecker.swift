import DetourDiagnostics
import DetourProxyCore
import DetourSupport
import Foundation

/// `detour check haproxy`: reads the configuration as HAProxy 2.6 does, follows each
/// frontend to its backends and the pages they send, checks those files as HAProxy reads
/// them, and tells which page answers each code.
public enum HAProxyChecker: ProxyDialect {
    public static let name = "haproxy"
    public static let siteNoun = "frontend"

    static let rules: [any HAProxyRule] = [
        HAProxyMissingPageRule(), HAProxyInvalidErrorFileRule(), HAProxyStatusLineRule(), HAProxyOversizedErrorFileRule(),
        HAProxyCodeNotCoveredRule(), HAProxyReplacedPageRule(), HAProxyUpstreamPassThroughRule(), HAProxyErrorlocRedirectRule(), HAProxyProtectedPageRule(),
        HAProxyRedirectLoopRule(),
    ]

    /// Every rule it reports (`HAProxyRules`): the README's table, `--list-rules` and SARIF.
    public static let catalogue: [RuleDescription] = HAProxyRules.all

    public static func check(_ options: ProxyCheck.Options) -> ProxyCheck.Report {
        check(options, environment: ProcessInfo.processInfo.environment)
    }

    static func check(_ options: ProxyCheck.Options, environment: [String: String]) -> ProxyCheck.Report {
        let version = HAProxyVersionSource(options.serverVersion.flatMap(HAProxyVersionSource.Version.init))
        let config = HAProxyConfig.load(
            [(options.main, options.mainDisplay)] + options.more, environment: environment, version: version,
            files: .init(base: options.main.deletingLastPathComponent().path, maps: options.maps))
        // Past a reading error HAProxy stops once it has read the files; what it refuses while
        // reading them is said with it, in the files' order.
        guard config.diagnostics.isEmpty else {
            let order = Dictionary(config.files.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            func place(_ diagnostic: Diagnostic) -> (Int, Int, Int) {
                (order[diagnostic.location.path] ?? Int.max, diagnostic.location.line, diagnostic.location.column)
            }
            // HAProxy opens each page file as it reads its line: one it cannot open is refused
            // with the rest, up to where it stops reading.
            let stop = config.diagnostics.filter { $0.message.hasSuffix(HAProxyConfig.stopsReading) }.map(place).min { $0 < $1 }
            let read = HAProxyModel(config)
            let context = HAProxyCheckContext(
                pageCodes: [], pagesFolder: nil, maps: options.maps, base: options.main.deletingLastPathComponent().path, model: read, sites: [])
            let pages = HAProxyMissingPageRule().check(read, in: context).filter { page in stop.map { place(page) < $0 } ?? true }
            let reading = config.diagnostics + config.sections.flatMap(HAProxyModel.anonymousDefaultsRefusals) + pages
            let ordered = reading.sorted { place($0) < place($1) }
            return ProxyCheck.Report(diagnostics: ordered, coverage: [], files: config.files)
        }
        let model = HAProxyModel(config)
        // A configuration HAProxy refuses serves nobody: its refusals are all there is to say.
        guard model.diagnostics.isEmpty, config.afterReading.isEmpty else {
            return ProxyCheck.Report(diagnostics: config.afterReading + model.diagnostics, coverage: [], files: config.files)
        }
        let pageCodes = PageFolder.codes(in: options.pages)
        // Each HTTP frontend's neutral model, on every core: its routes follow its backends,
        // which may be defined anywhere in the files, so there is no reading to overlap.
        let sites = SiteDriver { HAProxySite($0, in: model, codes: pageCodes) }.run(model.httpEntries)
        let context = HAProxyCheckContext(
            pageCodes: pageCodes, pagesFolder: options.pages?.standardizedFileURL.path, maps: options.maps, base: options.main.deletingLastPathComponent().path,
            model: model, sites: sites)
        // The rules on every core: each walks every backend of every frontend.
        let diagnostics = rules.concurrentMap { $0.check(model, in: context) }.flatMap { $0 }
        let coverage = context.sites.map(\.model.coverage)
        return ProxyCheck.Report(
            diagnostics: diagnostics, coverage: coverage, files: config.files, built: (config, model, context), pageFiles: context.pageFiles.files)
    }
}
