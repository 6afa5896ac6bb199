import DetourDiagnostics
import DetourProxyCore

/// One `apache.*` rule: its findings in one site.
protocol ApacheRule: ProxyRule {
    func check(_ site: ApacheSite, in context: ApacheCheckContext) -> [Diagnostic]
}
