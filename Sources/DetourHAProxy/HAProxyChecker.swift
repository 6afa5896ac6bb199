import DetourDiagnostics
import DetourProxyCore
import Foundation

/// `detour check haproxy`: reads the configuration as HAProxy 2.6 does, follows each
/// frontend to its backends and the pages they send, checks those files as HAProxy reads
/// them, and tells which page answers each code.
public enum HAProxyChecker: ProxyDialect {
    public static let name = "haproxy"
    public static let siteNoun = "frontend"

    static let rules: [any HAProxyRule] = [
        HAProxyMissingPageRule(), HAProxyInvalidErrorFileRule(), HAProxyStatusLineRule(), HAProxyOversizedErrorFileRule(),
        HAProxyCodeNotCoveredRule(), HAProxyUpstreamPassThroughRule(), HAProxyErrorlocRedirectRule(), HAProxyProtectedPageRule(),
        HAProxyRedirectLoopRule(),
    ]

    /// Every rule it reports (`HAProxyRules`): the README's table, `--list-rules` and SARIF.
    public static let catalogue: [RuleDescription] = HAProxyRules.all

    public static func check(_ options: ProxyCheck.Options) -> ProxyCheck.Report {
        check(options, environment: ProcessInfo.processInfo.environment)
    }

    static func check(_ options: ProxyCheck.Options, environment: [String: String]) -> ProxyCheck.Report {
        let config = HAProxyConfig.load([(options.main, options.mainDisplay)] + options.more, environment: environment)
        // Past a reading error HAProxy stops; what follows would be a guess.
        guard config.diagnostics.isEmpty else { return ProxyCheck.Report(diagnostics: config.diagnostics, coverage: [], files: config.files) }
        let model = HAProxyModel(config)
        let context = HAProxyCheckContext(
            pageCodes: PageFolder.codes(in: options.pages), maps: options.maps, base: options.main.deletingLastPathComponent().path, model: model)
        let diagnostics = model.diagnostics + rules.flatMap { $0.check(model, in: context) }
        let coverage = model.proxies.indices.compactMap { index -> SiteCoverage? in
            guard let answers = context.answers[index] else { return nil }
            let proxy = model.proxies[index]
            return SiteCoverage(name: proxy.kind == "listen" ? "\(proxy.name) (listen)" : proxy.name, location: proxy.location, answers: answers)
        }
        return ProxyCheck.Report(diagnostics: diagnostics, coverage: coverage, files: config.files)
    }
}
