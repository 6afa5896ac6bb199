import DetourProxyCore
import Foundation

/// The second step of `detour verify caddy` (see `CaddySandbox`): the JSON Caddy adapted the
/// sandboxed Caddyfile to, rewritten where a local run needs it. The admin endpoint is off
/// (it would take localhost:2019); storage and log files are the sandbox's; no TLS app, no
/// automatic HTTPS, every server plain HTTP on the free loopback port of its listen address;
/// every HTTP upstream the fake one (a FastCGI one where nothing listens); `root` paths
/// through `--map`. Everything else stays as Caddy adapted it.
public enum CaddySandboxJSON {
    public struct Patched: Sendable {
        public var json: Data
        /// What changed and why, as the report lists it.
        public var rewrites: [String] = []
        public var notProbed: [String] = []
    }

    /// nil when `adapted` is not a JSON object.
    public static func patch(_ adapted: Data, context: SandboxContext, configFolder: String) -> Patched? {
        guard var root = (try? JSONSerialization.jsonObject(with: adapted)) as? [String: Any] else { return nil }
        var patcher = Patcher(context: context, configFolder: configFolder)
        root["admin"] = ["disabled": true]
        root["storage"] = ["module": "file_system", "root": context.folder + "/storage"]
        patcher.note("admin, storage: off, and the sandbox's storage folder")
        if var logging = root["logging"] as? [String: Any] {
            patcher.logging(&logging)
            root["logging"] = logging
        }
        if var apps = root["apps"] as? [String: Any] {
            for app in ["tls", "pki"] where apps.removeValue(forKey: app) != nil {
                patcher.note("the \(app) app: removed, sandbox sites speak plain HTTP and make no certificates")
            }
            if var http = apps["http"] as? [String: Any] {
                if var servers = http["servers"] as? [String: Any] {
                    for (name, server) in servers {
                        guard var server = server as? [String: Any] else { continue }
                        patcher.server(name, &server)
                        servers[name] = server
                    }
                    http["servers"] = servers
                }
                apps["http"] = http
            }
            root["apps"] = apps
        }
        guard let json = try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]) else { return nil }
        return Patched(json: json, rewrites: patcher.rewrites, notProbed: patcher.notProbed)
    }

    private struct Patcher {
        let context: SandboxContext
        let configFolder: String
        var rewrites: [String] = []
        var notProbed: [String] = []
        private var seen: Set<String> = []

        init(context: SandboxContext, configFolder: String) {
            self.context = context
            self.configFolder = configFolder
        }

        /// Each reason once: a site's hundred routes share one.
        mutating func note(_ reason: String) {
            if seen.insert(reason).inserted { rewrites.append(reason) }
        }

        mutating func logging(_ logging: inout [String: Any]) {
            guard var logs = logging["logs"] as? [String: Any] else { return }
            for (name, log) in logs {
                guard var log = log as? [String: Any], var writer = log["writer"] as? [String: Any] else { continue }
                switch writer["output"] as? String {
                case "file":
                    let written = writer["filename"] as? String ?? ""
                    writer["filename"] = context.folder + "/logs/" + (written as NSString).lastPathComponent
                    note("log output file \(written): into the sandbox")
                case "net":
                    writer = ["output": "discard"]
                    note("log output net: discarded")
                default: continue
                }
                log["writer"] = writer
                logs[name] = log
            }
            logging["logs"] = logs
        }

        mutating func server(_ name: String, _ server: inout [String: Any]) {
            let listen = server["listen"] as? [String] ?? [":443"]
            let addresses = listen.map { "127.0.0.1:\(context.port(Self.portKey($0)))" }
            server["listen"] = Array(Set(addresses)).sorted()
            note("server \(name) listen \(listen.joined(separator: " ")): \(addresses.joined(separator: " "))")
            for option in ["tls_connection_policies", "listener_wrappers", "strict_sni_host"] where server.removeValue(forKey: option) != nil {
                note("server \(name) \(option): removed, sandbox sites speak plain HTTP")
            }
            if let protocols = server["protocols"] as? [String] { server["protocols"] = protocols.filter { $0 != "h3" } }
            server["automatic_https"] = ["disable": true]
            if var routes = server["routes"] as? [Any] {
                handlers(&routes)
                server["routes"] = routes
            }
            if var errors = server["errors"] as? [String: Any], var routes = errors["routes"] as? [Any] {
                handlers(&routes)
                errors["routes"] = routes
                server["errors"] = errors
            }
        }

        /// `:443`, `127.0.0.1:8080`, `tcp/:80`: the port, as `SandboxContext.port` keys it.
        static func portKey(_ address: String) -> String {
            let port = address.split(separator: ":").last.map(String.init) ?? ""
            return port.isEmpty || !port.allSatisfy(\.isNumber) ? address : port
        }

        /// Every handler in `value`, however deep (subroutes, handle_response, error routes).
        mutating func handlers(_ value: inout [Any]) {
            for index in value.indices {
                if var object = value[index] as? [String: Any] {
                    handler(&object)
                    value[index] = object
                } else if var array = value[index] as? [Any] {
                    handlers(&array)
                    value[index] = array
                }
            }
        }

        private mutating func handler(_ object: inout [String: Any]) {
            switch object["handler"] as? String {
            case "reverse_proxy": reverseProxy(&object)
            case "vars", "file_server":
                if let root = object["root"] as? String, !root.contains("{") { object["root"] = installed(root, object["handler"] as? String ?? "") }
            default: break
            }
            for (key, value) in object {
                if var nested = value as? [String: Any] {
                    handler(&nested)
                    object[key] = nested
                } else if var array = value as? [Any] {
                    handlers(&array)
                    object[key] = array
                }
            }
        }

        private mutating func reverseProxy(_ proxy: inout [String: Any]) {
            let written = (proxy["upstreams"] as? [[String: Any]] ?? []).compactMap { $0["dial"] as? String }
            let shown = written.isEmpty ? "dynamic upstreams" : written.joined(separator: " ")
            proxy.removeValue(forKey: "dynamic_upstreams")
            var transport = proxy["transport"] as? [String: Any] ?? [:]
            if transport["protocol"] as? String == "fastcgi" {
                let fake = context.upstream(speaking: "fastcgi")
                proxy["upstreams"] = [["dial": fake]]
                if fake == context.deadUpstream {
                    note("reverse_proxy (FastCGI) \(shown): nothing listens there")
                    notProbed.append("FastCGI upstream \(shown): no fake upstream speaks FastCGI here")
                } else {
                    note("reverse_proxy (FastCGI) \(shown): the fake upstream (fastcgi)")
                }
                return
            }
            // forward_auth's proxy (it sends the request's method and URI as headers): the
            // auth service lets every request in, so the probes reach what it guards.
            let headers = (proxy["headers"] as? [String: Any])?["request"] as? [String: Any]
            if let admitting = context.admitting, proxy["rewrite"] != nil, (headers?["set"] as? [String: Any])?["X-Forwarded-Method"] != nil {
                proxy["upstreams"] = [["dial": admitting]]
                note("forward_auth \(shown): a fake auth service that lets every request in")
                return
            }
            proxy["upstreams"] = [["dial": context.upstream]]
            note("reverse_proxy \(shown): the fake upstream (plain HTTP)")
            if transport.removeValue(forKey: "tls") != nil || transport["versions"] != nil {
                transport.removeValue(forKey: "versions")
                note("reverse_proxy \(shown) transport tls, versions: plain HTTP/1.1 to the fake upstream")
            }
            if !transport.isEmpty { proxy["transport"] = transport }
            // One mode's failures would mark the fake upstream down for the next ones.
            if var checks = proxy["health_checks"] as? [String: Any], checks.removeValue(forKey: "passive") != nil {
                proxy["health_checks"] = checks
                note("reverse_proxy \(shown) passive health checks: removed, so one probe's failure does not mark the upstream down for the next")
            }
        }

        /// A `root` read through `--map` (a relative one from the Caddyfile's folder, where
        /// Caddy is usually started); an installed path that is not mapped is an empty folder.
        private mutating func installed(_ written: String, _ handler: String) -> String {
            let path = written.hasPrefix("/") ? written : configFolder + "/" + written
            let mapped = PagePathMap.apply(context.maps, to: path)
            if mapped != path {
                note("\(handler) root \(path): \(mapped) (--map)")
                return mapped
            }
            note("\(handler) root \(path): not mapped, an empty folder (--map \(path)=DIR reads it)")
            return context.folder + "/unmapped" + path
        }
    }
}
