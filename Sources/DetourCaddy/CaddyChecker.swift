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
        CaddySoftStatusRule(), CaddyStatusAsMessageRule(), CaddyRespondShadowsFileServerRule(), CaddyErrorPageProtectedRule(),
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
            site.resolvePages(in: context)
            return (CaddyDirectiveCheck.check(block, config), rules.flatMap { $0.check(site, in: context) }, Self.coverage(of: site, in: context))
        }
        // Caddy's own refusals first, as Caddy would stop at them.
        diagnostics += checked.flatMap(\.directives) + checked.flatMap(\.rules)
        let coverage = checked.map(\.coverage)
        var seen = Set<Diagnostic>()
        return ProxyCheck.Report(diagnostics: diagnostics.filter { seen.insert($0).inserted }, coverage: coverage, files: config.files)
    }

    /// Per code, the file the first route answering it sends (`(missing)` when it is not
    /// there), `respond`, or nil.
    private static func coverage(of site: CaddySite, in context: CaddyCheckContext) -> SiteCoverage {
        let codes = context.pageCodes
        let answers = codes.map { code -> (Int, String?) in
            for (index, route) in site.errorRoutes.enumerated() where context.answers(route, code) && route.writesBody {
                // A respond without a matcher ends the route before file_server.
                if let respond = route.respond ?? (route.fileServer == nil ? route.responds.first : nil) {
                    return (code, "respond (\(context.location(of: respond[0]).description))")
                }
                let files = site.pageFiles[index][code] ?? []
                guard let file = files.first else { return (code, "handle_errors (a path known only at request time)") }
                let shown = files.count > 1 ? "\(file.localPath) and \(files.count - 1) more" : file.localPath
                return (code, files.allSatisfy(\.exists) ? shown : shown + " (missing)")
            }
            return (code, nil)
        }
        let start = site.block.start.map { context.location(of: $0) } ?? SourceLocation(path: context.files.first ?? "", line: 1, column: 1)
        return SiteCoverage(name: site.name.isEmpty ? "site" : site.name, location: start, answers: answers)
    }
}
