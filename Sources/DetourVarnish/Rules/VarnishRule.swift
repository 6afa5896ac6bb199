import DetourDiagnostics
import DetourProxyCore

/// One `varnish.*` rule: its findings in the VCL.
protocol VarnishRule: ProxyRule {
    func check(_ site: VarnishSite, in context: VarnishCheckContext) -> [Diagnostic]
}
