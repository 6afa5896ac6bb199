import DetourDiagnostics
import DetourProxyCore
import Foundation

/// `detour check varnish`: reads a VCL and its includes as varnishd 7.1 compiles them, follows
/// every way Varnish answers with an error (a dead backend, the backend's own 5xx, the VCL's
/// `synth` and `error`) through vcl_backend_error and vcl_synth, the built-in VCL included, to
/// the page visitors get, and tells which file answers each code.
public enum VarnishChecker: ProxyDialect {
    public static let name = "varnish"
    public static let siteNoun = "VCL"

    static let rules: [any VarnishRule] = [
        VarnishMissingPageRule(), VarnishCodeNotCoveredRule(), VarnishSoftStatusRule(), VarnishUpstreamPassThroughRule(), VarnishErrorCachedRule(),
    ]

    /// Every rule it reports (`VarnishRules`): the README's table, `--list-rules` and SARIF.
    public static let catalogue: [RuleDescription] = VarnishRules.all

    public static func check(_ options: ProxyCheck.Options) -> ProxyCheck.Report {
        // `--server-root` names the folders of varnishd's `-p vcl_path`; by default the main
        // file's folder comes first, as where the VCL is installed (/etc/varnish/default.vcl
        // with its includes beside it), then Debian's: `detour verify` runs it so.
        let vclPath =
            options.serverRoot.map { $0.split(separator: ":").map(String.init) }
            ?? [options.main.deletingLastPathComponent().path] + VCLConfig.defaultVCLPath
        let config = VCLConfig.load(main: options.main, display: options.mainDisplay, vclPath: vclPath)
        if let refusal = config.diagnostic ?? VCLCompileCheck(program: config.program, table: .shared).firstRefusal() {
            return ProxyCheck.Report(diagnostics: [refusal], coverage: [], files: config.files)
        }
        let context = VarnishCheckContext(pageCodes: PageFolder.codes(in: options.pages), pageFiles: PageFileLookup(maps: options.maps))
        let site = VarnishSite(config, display: options.mainDisplay, in: context)
        return ProxyCheck.Report(
            diagnostics: rules.flatMap { $0.check(site, in: context) }, coverage: [site.model.coverage], files: config.files, pageFiles: context.pageFiles.files
        )
    }
}
