import DetourDiagnostics
import DetourProxyCore

/// One `apache.*` rule: its findings on the whole configuration.
protocol ApacheRule: ProxyRule {
    func check(_ model: ApacheModel, in context: ApacheCheckContext) -> [Diagnostic]
}
