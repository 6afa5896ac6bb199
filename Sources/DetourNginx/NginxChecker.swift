import DetourDiagnostics
import DetourProxyCore
import Foundation
import Synchronization

/// `detour check nginx`: reads the configuration with its includes, resolves every
/// `error_page` as nginx would, runs the rules and tells which file answers each code.
public enum NginxChecker: ProxyDialect {
    public static let name = "nginx"
    public static let siteNoun = "server"

    static let rules: [any NginxRule] = [
        MissingPageFileRule(), UndefinedNamedLocationRule(), DroppedInheritedPagesRule(), UninterceptedUpstreamRule(), AuthServicePageRule(),
        InterceptedWithoutPageRule(), ProxiedPageRule(), ReturnedPageRule(), NotInternalRule(), SoftErrorStatusRule(), ProtectedPageRule(),
        HeaderWithoutAlwaysRule(), UncoveredCodeRule(), DynamicTargetRule(), ServerRewriteRule(),
    ]

    /// Every rule it reports (`NginxRules`): the README's table, `--list-rules` and SARIF.
    public static let catalogue: [RuleDescription] = NginxRules.all

    public static func check(_ options: ProxyCheck.Options) -> ProxyCheck.Report {
        // The directive table is read while the files are.
        DispatchQueue.global().async { _ = NginxDirectiveTable.shared }
        let loaded = NginxConfigLoader(main: options.main, displayPath: options.mainDisplay).load()
        // What nginx -t would refuse is checked beside the model and the rules: neither reads
        // the other's results, and each leaves cores idle between its parallel parts.
        let directiveErrors = Mutex<[Diagnostic]>([])
        let directiveCheck = DispatchGroup()
        DispatchQueue.global().async(group: directiveCheck) {
            let found = NginxDirectiveCheck.check(loaded.config, syntaxErrors: loaded.diagnostics)
            directiveErrors.withLock { $0 = found }
        }
        var modelDiagnostics: [Diagnostic] = []
        let model = NginxConfigModel(loaded.config, diagnostics: &modelDiagnostics)
        let context = NginxCheckContext(pageCodes: PageFolder.codes(in: options.pages), maps: options.maps)
        // Servers are independent: each is modelled, resolved, checked by every rule and
        // tabulated in one task, servers spread over the cores.
        let driver = SiteDriver { (block: NginxDirective, inherited: NginxScope) -> ([Diagnostic], SiteCoverage) in
            var found: [Diagnostic] = []
            let server = NginxServer(directive: block, in: model.config, inherited: inherited, diagnostics: &found)
            let facts = context.facts(for: server)
            for rule in rules { found += rule.check(server, facts, in: context) }
            return (found, facts.site.coverage)
        }
        for server in model.serverBlocks { driver.submit(server) }
        let checked = driver.finish()
        directiveCheck.wait()
        // nginx refuses to start on a configuration error: nothing is served to judge, so only
        // the refusals are reported. A configuration written for NGINX Plus is the exception:
        // it is judged as Plus would serve it, its Plus-only lines reported beside the advice.
        let refusals = (loaded.diagnostics + directiveErrors.withLock { $0 }).filter { $0.severity == .error }
        if !refusals.isEmpty, !refusals.contains(where: { $0.notes.contains { $0.message == NginxPlusOnly.note } }) {
            return ProxyCheck.Report(diagnostics: refusals, coverage: [], files: loaded.files)
        }
        var diagnostics = loaded.diagnostics + directiveErrors.withLock { $0 } + modelDiagnostics
        var seen = Set<Diagnostic>()
        for diagnostic in checked.lazy.flatMap(\.0) where seen.insert(diagnostic).inserted {
            diagnostics.append(diagnostic)
        }
        return ProxyCheck.Report(
            diagnostics: diagnostics, coverage: checked.map(\.1), files: loaded.files, built: (loaded, model), pageFiles: context.pageFiles.files)
    }

}
