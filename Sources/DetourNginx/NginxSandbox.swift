import DetourDiagnostics
import DetourProxyCore
import Foundation

/// `detour verify nginx`: what running an nginx configuration on 127.0.0.1 needs. The
/// configuration is read as `detour check` reads it (includes and all); the plan copies every
/// file it read and rewrites, by the bytes each word spans, only what a local run needs:
/// listen addresses to free loopback ports (listen options dropped; TLS kept, with the sandbox's certificate), upstreams to the
/// fake one, pid, logs, temporary and cache paths into the sandbox, installed paths through
/// `--map`. Its sites are each server's first name on each of its ports, with the paths of
/// its prefix and exact locations and a path routed to each regular expression's. A site's file
/// (server blocks at its top) runs inside an http block, as the nginx.conf that includes it runs it.
public enum NginxSandbox {
    public static func plan(main: URL, mainDisplay: String, context: SandboxContext) -> SandboxPlan {
        let loaded = NginxConfigLoader(main: main, displayPath: mainDisplay).load()
        var planner = NginxSandboxPlanner(view: loaded.config.view, context: context)
        planner.plan.files = zip(loaded.paths, loaded.files).map { SandboxPlan.File(path: $0.0, displayPath: $0.1) }
        // nginx never finishes reading these (its test dies on a deep enough cycle): detour's
        // findings stand in for its own. Syntax errors and missing includes are its test's to say.
        let unending = Set([NginxRules.includeCycle.id, NginxRules.includeDepth.id, NginxRules.includeSize.id, NginxRules.fileTooLarge.id])
        planner.plan.blockingFindings = loaded.diagnostics.filter { $0.severity == .error && unending.contains($0.rule) }
        guard planner.plan.blockingFindings.isEmpty else { return planner.plan }
        planner.rewriteIncludes(loaded.includes)
        // A site's file runs as the include of an http block written beside the copy of the
        // folder its relative includes start at, as the nginx.conf above it includes it.
        let sitesServers = loaded.isSiteFile && loaded.config.directives.contains { $0.kind == .server || $0.kind == .upstream }
        if sitesServers {
            planner.plan.wrapper = (
                context.copy(of: loaded.prefixPath + "/detour-site.conf"), "events {}\nhttp {\n    include \(context.copy(of: main.path));\n}\n"
            )
        }
        let httpDirectives =
            sitesServers ? Array(loaded.config.directives) : loaded.config.directives.filter { $0.kind == .http }.flatMap { Array($0.children) }
        planner.upstreamNames = Set(httpDirectives.filter { $0.kind == .upstream }.compactMap(\.firstValue))
        var ignored: [Diagnostic] = []
        let model = NginxConfigModel(loaded.config, diagnostics: &ignored)
        for (block, inherited) in model.serverBlocks {
            planner.models[block] = NginxServer(directive: block, in: model.config, inherited: inherited, diagnostics: &ignored)
        }
        planner.plan.serverRaisedStatuses = [502, 504]
        planner.plan.errorLogs = ["error.log"]
        planner.plan.logSignatures = model.serverBlocks.flatMap { block, _ in planner.models[block].map(NginxSandboxPlanner.undefinedNamedLocations) ?? [] }
        for directive in NginxSandboxPlanner.all(loaded.config.directives, { NginxSandboxPlanner.gateways[$0.name] != nil }) {
            if let gateway = NginxSandboxPlanner.gateways[directive.name], let name = directive.firstValue, planner.upstreamNames.contains(name) {
                planner.gatewayUpstreams[name] = gateway
            }
        }
        if sitesServers { planner.walkSite(loaded.config.directives) } else { planner.walk(loaded.config.directives, in: .main) }
        // A port is TLS for every server on it once one of its listens says `ssl`, as in nginx.
        for index in planner.plan.sites.indices { planner.plan.sites[index].tls = planner.tlsPorts.contains(planner.plan.sites[index].port) }
        // The configuration is held until here: the plan's words were read from it.
        withExtendedLifetime(loaded.config) {}
        return planner.plan
    }
}
