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
        HAProxyUncoveredCodeRule(), HAProxyBackendPassThroughRule(), HAProxyErrorlocRedirectRule(), HAProxyProtectedPageRule(),
        HAProxyRedirectLoopRule(),
    ]

    public static let catalogue: [RuleDescription] = [
        RuleDescription("haproxy.syntax", .error, summary: "a configuration HAProxy cannot read: an unmatched quote, no final line feed, a line out of any section, an unclosed .if, an unknown defaults or http-errors name",
                        consequence: "HAProxy refuses to start"),
        RuleDescription("haproxy.errorfile-code", .error, summary: "errorfile or http-error for a status they cannot customise (only 200, 400, 401, 403, 404, 405, 407, 408, 410, 413, 425, 429, 500–504)",
                        consequence: "HAProxy refuses to start ('status code not handled')"),
    ] + rules.map { type(of: $0).about }

    public static func check(_ options: ProxyCheck.Options) -> ProxyCheck.Report {
        check(options, environment: ProcessInfo.processInfo.environment)
    }

    static func check(_ options: ProxyCheck.Options, environment: [String: String]) -> ProxyCheck.Report {
        let config = HAProxyConfig.load([(options.main, options.mainDisplay)] + options.more, environment: environment)
        // Past a reading error HAProxy stops; what follows would be a guess.
        guard config.diagnostics.isEmpty else { return ProxyCheck.Report(diagnostics: config.diagnostics, coverage: [], files: config.files) }
        let model = HAProxyModel(config)
        let context = HAProxyCheckContext(pageCodes: PageFolder.codes(in: options.pages), maps: options.maps, base: options.main.deletingLastPathComponent().path, model: model)
        let diagnostics = model.diagnostics + rules.flatMap { $0.check(model, in: context) }
        let coverage = model.proxies.indices.compactMap { index -> SiteCoverage? in
            guard let answers = context.answers[index] else { return nil }
            let proxy = model.proxies[index]
            return SiteCoverage(name: proxy.kind == "listen" ? "\(proxy.name) (listen)" : proxy.name, location: proxy.location, answers: answers)
        }
        return ProxyCheck.Report(diagnostics: diagnostics, coverage: coverage, files: config.files)
    }
}
