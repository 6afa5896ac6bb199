import DetourCodeBlockCheck
import DetourTestSupport
import Foundation

/// Has the real server load a configuration block quoted in the knowledge base, wrapped in the
/// least it needs: nginx (`nginx -t`), Apache (`apache2 -t`), HAProxy (`haproxy -c`), Caddy
/// (`caddy validate`), Varnish (`varnishd -C`) and a PHP-FPM pool (`php-fpm8.2 -t`). Each runs in a mount namespace of
/// its own where the names the block proxies to (`app:8080`) resolve to 127.0.0.1 and
/// `/var/cache` is a scratch tmpfs, as on a machine where the block is in place; so it needs
/// root, as CI has.
enum ConfigBlockOracle {
    /// The languages it can judge, by the code block's info string.
    static let servers: [String: Server] = [
        "nginx": .nginx, "apache": .apache, "apacheconf": .apache, "caddyfile": .caddy, "caddy": .caddy, "haproxy": .haproxy, "ini": .phpFPM, "vcl": .varnish,
    ]

    enum Server: String {
        case nginx, apache, caddy, haproxy, varnish
        case phpFPM = "PHP-FPM"
    }

    /// Why the server refused `code` in every context tried, or nil when one accepted it.
    static func refusal(of code: String, by server: Server) throws -> String? {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        chmod(folder.path, 0o755)
        try folder.write(["hosts": "127.0.0.1 localhost\n" + names(in: code).map { "127.0.0.1 \($0)\n" }.joined()])
        var refusals: [String] = []
        for (context, file) in contexts(of: code, for: server, in: folder.path) {
            let (tool, arguments) = try command(for: server, file: file, in: folder.path)
            try folder.write([file.name: file.text])
            let result = try isolated(tool, arguments, hosts: folder.path + "/hosts", home: folder.path)
            if result.status == 0 { return nil }
            let said = (result.stderr + result.stdout).split(separator: "\n").filter { !$0.contains("AH00558") && !$0.isEmpty }
            refusals.append("\(context): " + said.joined(separator: " / ").replacingOccurrences(of: folder.path, with: ""))
        }
        return refusals.joined(separator: "; ")
    }

    private typealias File = (name: String, text: String)

    /// Every module Debian ships, under the event MPM (the others exclude it; cgi is for the
    /// prefork MPM), as a server with all of them enabled: one `LoadModule` line each.
    private static let apacheModules: String = {
        let modules = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/apache2/modules")) ?? []
        return modules.filter { $0.hasPrefix("mod_") && $0.hasSuffix(".so") }.sorted().compactMap { file -> String? in
            let name = String(file.dropFirst(4).dropLast(3))
            return ["mpm_prefork", "mpm_worker", "cgi"].contains(name) ? nil : "LoadModule \(name)_module /usr/lib/apache2/modules/\(file)"
        }.joined(separator: "\n")
    }()

    /// The files to try, most general context first.
    private static func contexts(of code: String, for server: Server, in folder: String) -> [(String, File)] {
        switch server {
        case .nginx:
            let around = { (inside: String) -> File in
                ("nginx.conf", "pid \(folder)/nginx.pid;\nevents {}\nhttp {\n\(inside)\n}\n")
            }
            return [
                ("in http", around(code)), ("in server", around("server {\nlisten 127.0.0.1:1;\n\(code)\n}")),
                ("in location", around("server {\nlisten 127.0.0.1:1;\nlocation / {\n\(code)\n}\n}")),
            ]
        case .apache:
            let head =
                "ServerRoot \(folder)\nServerName localhost\nPidFile \(folder)/apache.pid\nErrorLog \(folder)/error.log\nListen 127.0.0.1:1\n"
                + apacheModules + "\n"
            return [
                ("in the server config", ("apache.conf", head + code + "\n")),
                ("in <Location />", ("apache.conf", head + "<Location />\n\(code)\n</Location>\n")),
            ]
        case .caddy:
            let isSite = FragmentShape.isCaddyfile(code)
            return [(isSite ? "as a Caddyfile" : "in a site", ("Caddyfile", isSite ? code : "http://localhost:1 {\n\(code)\n}\n"))]
        case .haproxy:
            let head =
                "global\n    log stdout format raw local0\ndefaults\n    mode http\n    timeout connect 1s\n    timeout client 1s\n    timeout server 1s\n"
            let isSection = FragmentShape.isHAProxySections(code)
            return [
                (
                    isSection ? "as sections" : "in a listen section",
                    (
                        "haproxy.cfg",
                        head + (isSection ? code + "\nlisten listener\n    bind 127.0.0.1:1" : "listen fragment\n    bind 127.0.0.1:1\n\(code)") + "\n"
                    )
                )
            ]
        case .varnish:
            // A fragment of subroutines: the version line, std if it is used, and a backend.
            return [("as a VCL", ("default.vcl", FragmentShape.vclHead(code) + code + "\n"))]
        case .phpFPM:
            let pool = "[global]\nerror_log = \(folder)/php-fpm.log\n[www]\nlisten = \(folder)/php-fpm.sock\npm = static\npm.max_children = 1\n"
            return [("in a pool", ("php-fpm.conf", pool + code + "\n"))]
        }
    }

    private static func command(for server: Server, file: File, in folder: String) throws -> (URL, [String]) {
        let path = folder + "/" + file.name
        switch server {
        case .nginx: return (try RequiredTool.find("nginx"), ["-t", "-q", "-p", folder + "/", "-c", path, "-e", folder + "/error.log"])
        case .apache: return (try RequiredTool.find("apache2"), ["-t", "-f", path])
        case .caddy: return (try RequiredTool.find("caddy"), ["validate", "--config", path, "--adapter", "caddyfile"])
        case .haproxy: return (try RequiredTool.find("haproxy"), ["-c", "-f", path])
        // -C compiles the VCL and stops; -n keeps its working folder in the scratch folder.
        case .varnish: return (try RequiredTool.find("varnishd"), ["-C", "-f", path, "-n", folder + "/varnish"])
        // -R: as root, as CI runs, a pool without `user` is allowed.
        case .phpFPM: return (try RequiredTool.find("php-fpm8.2"), ["-t", "-R", "-n", "-y", path])
        }
    }

    /// `tool` in a mount namespace where `hosts` is /etc/hosts and /var/cache is empty.
    private static func isolated(_ tool: URL, _ arguments: [String], hosts: String, home: String) throws -> ProcessResult {
        let script = #"mount --bind "$0" /etc/hosts && mount -t tmpfs tmpfs /var/cache && exec "$@""#
        return try ProcessRunner.run(
            try RequiredTool.find("unshare"), ["--mount", "sh", "-c", script, hosts, tool.path] + arguments,
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": home, "XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home])
    }

    /// Host names the block connects to: after `://`, or before `:port`.
    static func names(in code: String) -> Set<String> {
        let name = #/(?:://)?([A-Za-z][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)*)(?::\d+|(?=[/;\s]))/#
        var found: Set<String> = []
        for match in code.matches(of: name) where match.0.hasPrefix("://") || match.0.contains(":") {
            found.insert(String(match.1))
        }
        return found
    }
}
