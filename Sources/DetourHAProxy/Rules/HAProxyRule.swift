import DetourDiagnostics
import DetourProxyCore

/// One `haproxy.*` rule: its findings on the whole configuration.
protocol HAProxyRule: ProxyRule {
    func check(_ model: HAProxyModel, in context: HAProxyCheckContext) -> [Diagnostic]
}
