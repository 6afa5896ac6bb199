import Foundation

/// `caddy adapt` on a Caddyfile, as Caddy's own check of what it would load; its state and
/// configuration folders kept in a temporary place, never the user's.
public enum CaddyAdapt {
    public static func run(_ caddyfile: String, in folder: URL) throws -> ProcessResult {
        let caddy = try RequiredTool.find("caddy")
        let home = NSTemporaryDirectory()
        return try ProcessRunner.run(
            caddy, ["adapt", "--config", caddyfile, "--adapter", "caddyfile"], in: folder,
            environment: ["HOME": home, "XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home, "PATH": "/usr/bin:/bin"])
    }
}
