import DetourDiagnostics
import DetourProxyCore

/// The sites `detour verify haproxy` asks: each HTTP frontend and listen section on each of its
/// sandbox ports, with `/` (its default backend, or a listen section's own servers) and, for each
/// `use_backend` whose condition names a path or a Host (`path_beg /api`, `hdr(host) -i shop.example`,
/// inline or through its ACLs), that path under that Host. Each route's upstream is the backend
/// section, where `detour check` places what its servers pass through.
struct HAProxySandboxSites {
    private(set) var sites: [SandboxPlan.Site] = []
    private(set) var notProbed: [(location: SourceLocation, reason: String)] = []

    /// Fetches whose value is a path prefix, an exact path, a folder, or a Host.
    static let prefixes: Set<String> = ["path_beg", "url_beg"]
    static let exact: Set<String> = ["path", "url"]
    static let hosts: Set<String> = ["hdr(host)", "req.hdr(host)", "hdr_beg(host)", "hdr_dom(host)", "hdr_end(host)", "req.hdr(host),lower"]

    init(model: HAProxyModel, ports: [SourceLocation: [Int]], tlsPorts: Set<Int> = [], clients: [SourceLocation: String] = [:]) {
        for proxy in model.httpEntries {
            guard let ports = ports[proxy.location], !ports.isEmpty else { continue }
            let backend = { (name: String) in model.backendsByName[name].map { model.proxies[$0] } }
            let fallback = proxy.settings.defaultBackend.flatMap { backend($0.backend) } ?? (proxy.kind == "listen" ? proxy : nil)
            // HAProxy's own errors are answered by the backend's errorloc, else the frontend's.
            let redirects = { (backend: HAProxyProxy?) in
                proxy.settings.errorRedirects.merging(backend?.settings.errorRedirects ?? [:]) { $1 }.mapValues(\.line)
            }
            // The whole-response pages for HAProxy's own errors (the backend's first) and for
            // the upstream's statuses its `http-response return` rules replace.
            let rawPages = { (backend: HAProxyProxy?) -> (own: [Int: SourceLocation], upstream: [Int: SourceLocation]) in
                var own: [Int: SourceLocation] = [:]
                var upstream: [Int: SourceLocation] = [:]
                for code in 400...599 {
                    if let page = backend?.settings.page(for: code) ?? proxy.settings.page(for: code), page.kind == .response { own[code] = page.line }
                    if let page = backend?.settings.responseReturns[code] ?? proxy.settings.responseReturns[code] {
                        if page.kind == .response { upstream[code] = page.line }
                    } else if backend?.settings.replacedStatuses.contains(code) == true || proxy.settings.replacedStatuses.contains(code) {
                        // `http-response return status N default-errorfiles`: the page for HAProxy's own N.
                        upstream[code] = own[code]
                    }
                }
                return (own, upstream)
            }
            var first = SandboxPlan.Route(
                path: "/", location: proxy.location, upstreamLocation: fallback.flatMap { $0.settings.servers > 0 ? $0.location : nil })
            first.redirects = redirects(fallback)
            first.rawPages = rawPages(fallback)
            var routes = [first]
            // Whether `/` still goes to the default backend: a use_backend that takes it is asked first.
            var rootIsDefault = true
            var byHost: [(host: String, routes: [SandboxPlan.Route])] = []
            for route in proxy.settings.routes {
                guard !route.isDynamic, let target = Self.target(route.condition, acls: proxy.settings.acls) else {
                    notProbed.append((route.line, "use_backend \(route.backend): no path or Host is derived from its condition yet"))
                    continue
                }
                let upstream = backend(route.backend).flatMap { $0.settings.servers > 0 ? $0.location : nil }
                var probe = SandboxPlan.Route(path: target.path ?? "/", location: route.line, upstreamLocation: upstream)
                probe.redirects = redirects(backend(route.backend))
                probe.rawPages = rawPages(backend(route.backend))
                if let host = target.host {
                    if let index = byHost.firstIndex(where: { $0.host == host }) {
                        if !byHost[index].routes.contains(where: { $0.path == probe.path }) { byHost[index].routes.append(probe) }
                    } else {
                        byHost.append((host, [probe]))
                    }
                } else if probe.path == first.path, rootIsDefault {
                    routes[0] = probe
                    rootIsDefault = false
                } else if !routes.contains(where: { $0.path == probe.path }) {
                    routes.append(probe)
                }
            }
            for port in ports {
                var site = SandboxPlan.Site(host: "127.0.0.1", port: port, location: proxy.location, routes: routes)
                site.tls = tlsPorts.contains(port)
                site.clientAddress = clients[proxy.location]
                sites.append(site)
                for (host, hostRoutes) in byHost {
                    site.host = host
                    site.routes = hostRoutes
                    sites.append(site)
                }
            }
        }
    }

    /// The path and Host a request meeting `condition` has, as far as its first alternative
    /// says: nil when it is negated (`unless`, `!`) or names neither.
    static func target(_ condition: [String], acls: [String: [[String]]]) -> (path: String?, host: String?)? {
        guard condition.first == "if" else { return condition.isEmpty ? ("/", nil) : nil }
        var path: String?
        var host: String?
        var index = 1
        while index < condition.count {
            let word = condition[index]
            if word == "||" || word.lowercased() == "or" { break }
            if word.hasPrefix("!") { return nil }
            var criteria: [[String]]
            if word == "{" {
                let end = condition[index...].firstIndex(of: "}") ?? condition.count
                criteria = [Array(condition[(index + 1)..<end])]
                index = end + 1
            } else {
                criteria = acls[word] ?? []
                index += 1
            }
            for criterion in criteria {
                let read = Self.read(criterion)
                path = path ?? read.path
                host = host ?? read.host
            }
        }
        guard path != nil || host != nil else { return nil }
        return (path, host)
    }

    /// One criterion (`path_beg -i /img /css`, `hdr(host) -m end .example.com`): the first
    /// path or Host it matches.
    private static func read(_ criterion: [String]) -> (path: String?, host: String?) {
        guard var fetch = criterion.first?.lowercased() else { return (nil, nil) }
        var values: [String] = []
        var match: String?
        var index = 1
        while index < criterion.count {
            let word = criterion[index]
            if word == "-m", index + 1 < criterion.count {
                match = criterion[index + 1]
                index += 2
            } else if word == "-f" || word == "-M" || word == "-u" {
                index += 2
            } else if word.hasPrefix("-") {
                index += 1
            } else {
                values.append(word)
                index += 1
            }
        }
        guard let value = values.first else { return (nil, nil) }
        if let match, fetch == "path" || fetch == "hdr(host)" || fetch == "req.hdr(host)" {
            fetch += "-m " + match
        }
        switch fetch {
        case _ where prefixes.contains(fetch), "path-m beg", "path-m str",
            _ where exact.contains(fetch):
            return (value.hasPrefix("/") ? value : nil, nil)
        case "path_dir": return (value.hasPrefix("/") ? value + "/" : nil, nil)
        case "hdr(host)", "req.hdr(host)", "hdr(host)-m str", "req.hdr(host)-m str", "hdr_dom(host)", "req.hdr(host),lower": return (nil, value)
        case "hdr_beg(host)", "hdr(host)-m beg", "req.hdr(host)-m beg": return (nil, value + "detour-probe.example")
        case "hdr_end(host)", "hdr(host)-m end", "req.hdr(host)-m end": return (nil, "detour-probe" + (value.hasPrefix(".") ? value : "." + value))
        default: return (nil, nil)
        }
    }
}
