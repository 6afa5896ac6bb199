import DetourDiagnostics
import DetourProxyCore
import Foundation

/// `detour verify apache`: what running an Apache configuration on 127.0.0.1 needs. It is read
/// as `detour check` reads it (includes from ServerRoot, Define and `${VAR}` applied,
/// conditional sections decided), every file read is copied (ServerRoot's tree keeps its shape,
/// so relative includes find their copies), and the lines a local run needs are rewritten whole
/// (`ApacheSandboxPlanner`). Its sites are each virtual host's name on each of its ports (the
/// main server's when it has none), with `/` and the paths its ProxyPass and `<Location>` name.
public enum ApacheSandbox {
    /// Debian's variables the configuration's `${…}` reads (`/etc/apache2/envvars`), set to the
    /// sandbox's folders; the server's environment gets the same.
    public static func environment(folder: String, asRoot: Bool) -> [String: String] {
        [
            "APACHE_RUN_USER": asRoot ? "nobody" : NSUserName(), "APACHE_RUN_GROUP": asRoot ? "nogroup" : NSUserName(),
            "APACHE_PID_FILE": folder + "/server.pid", "APACHE_RUN_DIR": folder + "/run", "APACHE_LOCK_DIR": folder + "/lock",
            "APACHE_LOG_DIR": folder + "/log",
        ]
    }

    public static func plan(main: URL, mainDisplay: String, context: SandboxContext) -> SandboxPlan {
        var plan = SandboxPlan()
        let environment = ProcessInfo.processInfo.environment.merging(Self.environment(folder: context.folder, asRoot: context.asRoot)) { _, own in own }
        let config = ApacheConfig.load(main: main, display: mainDisplay, serverRoot: nil, environment: environment)
        plan.files = zip(config.paths, config.sources).map { SandboxPlan.File(path: $0.0, displayPath: $0.1.displayPath) }
        // A file Apache cannot read: its own test says so.
        guard !plan.files.isEmpty else { return plan }
        let root = config.serverRoot.hasPrefix("/") ? config.serverRoot : main.deletingLastPathComponent().path + "/" + config.serverRoot
        var planner = ApacheSandboxPlanner(config: config, context: context, serverRoot: root)
        planner.rewrite()
        plan.rewrites = planner.rewrites
        plan.notProbed = planner.notProbed
        plan.sites = planner.sites
        plan.errorLogs = ["log/errorlog.log"]
        plan.unnamedStatusesPass = true
        plan.redirectRule = ApacheRules.errorDocumentUrl.id
        plan.ownErrorStatuses = Set([500, 502, 503] + (planner.timesOutAs504 ? [504] : []))
        plan.unreplaceableAnswers = [
            (
                "sending a header no proxy can read", 500,
                "mod_proxy_fcgi answers a FastCGI upstream's unreadable header with an empty 500 itself: no ErrorDocument replaces it"
            )
        ]
        plan.arguments = ["-d", context.copy(of: root)]
        plan.folders = [context.copy(of: root)] + planner.unmappedFolders
        return plan
    }
}
