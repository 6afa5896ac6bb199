import DetourDiagnostics
import DetourProxyCore
import Foundation

/// `detour verify haproxy`: what running an HAProxy configuration on 127.0.0.1 needs. The file
/// is read as `detour check` reads it (`.if` blocks decided, defaults inherited); the plan
/// rewrites whole lines, as HAProxy reads a line at a time: `bind` addresses to free loopback
/// ports (bind options dropped; TLS kept with the sandbox's certificate), `server` lines to the fake upstream (their options
/// dropped: no TLS, no health checks whose timing would decide the answers; a FastCGI
/// backend's where nothing listens; one whose TLS HAProxy refuses for want of a CA file keeps
/// `ssl verify required`, so HAProxy's own test refuses it there too), process settings (daemon, chroot, pidfile, stats socket,
/// user) out of the way, `errorfile` and `return … file` paths through `--map`, and timeouts
/// above 3 s shortened. Its sites are each HTTP frontend's (and listen section's) ports, with
/// `/` and a path (and Host) for each `use_backend` whose ACLs name one.
public enum HAProxySandbox {
    public static func plan(main: URL, mainDisplay: String, context: SandboxContext) -> SandboxPlan {
        var plan = SandboxPlan()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: main.path, isDirectory: &isFolder), isFolder.boolValue {
            plan.blockingFindings = [
                .error(
                    HAProxyRules.syntax.id, "detour verify haproxy runs one configuration file, and '\(mainDisplay)' is a folder",
                    at: SourceLocation(path: mainDisplay))
            ]
            return plan
        }
        plan.files = [SandboxPlan.File(path: main.path, displayPath: mainDisplay)]
        let config = HAProxyConfig.load([(main, mainDisplay)], environment: ProcessInfo.processInfo.environment)
        // A file HAProxy cannot read: its own test says so, at its line. One it refuses in part
        // (a line out of place) is still rewritten, so its test names only what it refuses.
        guard let data = FileManager.default.contents(atPath: main.path) else { return plan }
        let model = HAProxyModel(config)
        var planner = HAProxySandboxPlanner(
            bytes: [UInt8](data), context: context, configFolder: main.deletingLastPathComponent().path, tlsRefusedServers: model.tlsRefusedServers,
            refusedLines: Set(config.diagnostics.map(\.location.line)))
        for section in config.sections { planner.rewrite(section) }
        plan.rewrites = planner.rewrites
        plan.notProbed = planner.notProbed
        guard model.diagnostics.isEmpty else { return plan }
        let sites = HAProxySandboxSites(model: model, ports: planner.bindPorts, tlsPorts: planner.tlsPorts, clients: planner.clientAddresses)
        plan.sites = sites.sites
        plan.redirectRule = HAProxyRules.errorlocRedirect.id
        plan.statusLineRule = HAProxyRules.errorfileStatusLine.id
        plan.notProbed += sites.notProbed
        plan.notProbed += config.sections.filter { HAProxySection.proxies.contains($0.kind) && $0.kind != "backend" }.compactMap { section in
            model.httpEntries.contains { $0.location == section.location }
                ? nil : (section.location, "\(section.kind) \(section.name ?? ""): mode tcp, not probed over HTTP")
        }
        return plan
    }
}
