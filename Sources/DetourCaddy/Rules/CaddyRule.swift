import DetourDiagnostics
import DetourProxyCore

/// One check over a Caddy site block, with its catalogue entry.
protocol CaddyRule: ProxyRule {
    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic]
}
