import DetourDiagnostics
import DetourProxyCore
import Foundation

/// The line rewrites and sites of `ApacheSandbox`. A line is written anew from its words
/// (variables already applied), its indentation and number kept; a line continued with `\` is
/// left as written. Rewritten: `Listen` and `<VirtualHost>` addresses to free loopback ports,
/// every proxied URL (ProxyPass, ProxyPassMatch, ProxyPassReverse, BalancerMember, a `proxy:`
/// handler, a `[P]` RewriteRule) to the fake upstream (FastCGI, uwsgi, AJP and sockets where
/// nothing listens), mod_ssl's directives out (sites speak plain HTTP), pid, log, mutex and
/// runtime paths into the sandbox, User and Group to nobody (or out, without root), installed
/// paths (DocumentRoot, Alias, `<Directory>`) through `--map`, relative LoadModule paths to
/// the installed modules, absolute Include paths to their copies, Timeout above 3 s to 3 s.
struct ApacheSandboxPlanner {
    let config: ApacheConfig
    let context: SandboxContext
    let serverRoot: String
    private(set) var rewrites: [SandboxPlan.Rewrite] = []
    private(set) var notProbed: [(location: SourceLocation, reason: String)] = []
    private(set) var sites: [SandboxPlan.Site] = []
    /// Whether a FastCGI or AJP upstream is proxied to: Apache then raises 504 itself too.
    private(set) var timesOutAs504 = false
    /// The sandbox's empty stand-ins for installed folders not mapped: made before Apache
    /// starts, as the installed ones exist where it runs.
    private(set) var unmappedFolders: [String] = []
    /// Each file's lines as written, read once.
    private var files: [Int: SourceLines] = [:]

    static let timeoutSeconds = 3
    static let logs: Set<String> = ["errorlog", "customlog", "transferlog", "forensiclog", "rewritelog", "scriptlog"]
    static let stateFiles: [String: String] = [
        "pidfile": "server.pid", "scoreboardfile": "scoreboard", "lockfile": "lock/accept", "defaultruntimedir": "run",
        "coredumpdirectory": "run", "scriptsock": "run/cgisock",
    ]
    static let installed: Set<String> = ["documentroot", "alias", "scriptalias", "directory", "aliasmatch", "scriptaliasmatch"]

    init(config: ApacheConfig, context: SandboxContext, serverRoot: String) {
        self.config = config
        self.context = context
        self.serverRoot = serverRoot
    }

    private func name(_ entry: FlatEntry<ApacheName>) -> String {
        config.sources[Int(entry.file)].apacheValue(config.sources[Int(entry.file)].words[Int(entry.firstWord)]).lowercased()
    }

    mutating func rewrite() {
        var hosts: [VirtualHostRoutes] = []
        var serverRoutes: [SandboxPlan.Route] = []
        // Each code's ErrorDocument line: a virtual host's own, else the main server's.
        var serverPageLines: [Int: SourceLocation] = [:]
        var serverRedirectLines: [Int: SourceLocation] = [:]
        var serverFiles = LocalFiles()
        var serverProxyPasses: [ProxyPrefix] = []
        var listened: [Int] = []
        // The virtual hosts that keep `SSLEngine on`.
        var tlsHosts: Set<Int> = []
        var open: [Int] = []
        // The first proxying line outside every virtual host.
        var serverFirstProxy: SourceLocation?
        // The main server's lines that proxy, to tell whether each one gave a route (`proxiedPaths`).
        var serverProxyingLines: [SourceLocation] = []
        // Whether the RewriteConds since the last RewriteRule test a file.
        var testsFiles = false
        // Whether a `[P]` rule outside every virtual host proxies by the files there are.
        var serverProxiesMissingFiles = false
        // A `ProxyErrorOverride On` with a status list outside every virtual host.
        var serverOverrideList: SourceLocation?
        // The codes `ProxyErrorOverride On` outside every virtual host replaces (empty: all; nil: off).
        var serverOverrideCodes: Set<Int>?
        for (index, entry) in config.entries.enumerated() {
            while let last = open.last, Int(config.entries[last].end) <= index { open.removeLast() }
            let name = self.name(entry)
            let arguments = config.arguments(of: entry)
            let location = config.location(of: entry)
            let inHost = open.last(where: { config.entries[$0].name == .virtualhost })
            if entry.isBlock { open.append(index) }
            let proxying = Self.proxies(name: name, arguments: arguments)
            if proxying || name == "balancermember" {
                // A handler's target without its `proxy:` (`proxy:unix:…|fcgi://…`).
                let targets = arguments.map { $0.lowercased().hasPrefix("proxy:") ? String($0.dropFirst("proxy:".count)) : $0 }
                if targets.contains(where: ApacheScope.timesOutAs504) { timesOutAs504 = true }
            }
            if proxying {
                if let host = hosts.indices.last, inHost == hosts[host].entry {
                    if hosts[host].firstProxy == nil { hosts[host].firstProxy = location }
                    hosts[host].proxyingLines.append(location)
                } else if inHost == nil {
                    if serverFirstProxy == nil { serverFirstProxy = location }
                    serverProxyingLines.append(location)
                }
            }
            // RewriteConds before a rule that test a file (`-f`, `!-d`, …): which requests a
            // `[P]` rule after them proxies depends on the files the site has.
            if name == "rewritecond" {
                testsFiles = testsFiles || arguments.dropFirst().contains { ["-f", "-d", "-s", "-F", "-l", "-L", "-h"].contains($0.drop { $0 == "!" }) }
            }
            defer { if name == "rewriterule" { testsFiles = false } }
            switch name {
            case "listen" where !arguments.isEmpty:
                let port = context.port(Self.portKey(arguments[0]))
                listened.append(port)
                replace(entry, with: ["Listen", "127.0.0.1:\(port)"], "Listen \(arguments.joined(separator: " ")): 127.0.0.1:\(port)")
            case "virtualhost":
                let ports = arguments.map { context.port(Self.portKey($0)) }
                replace(
                    entry, with: ["<VirtualHost"] + ports.map { "*:\($0)" } + [">"],
                    "<VirtualHost \(arguments.joined(separator: " "))>: \(ports.map { "*:\($0)" }.joined(separator: " "))", section: true)
                hosts.append(VirtualHostRoutes(entry: index, ports: ports, routes: [.init(path: "/", location: location)]))
            case "proxyerroroverride" where !arguments.isEmpty:
                // A status list: the codes it leaves out pass through, named at it, as `detour check` names them.
                let on = arguments[0].lowercased() == "on"
                let codes = on ? Set(arguments.dropFirst().compactMap { Int($0) }) : nil
                if let host = hosts.indices.last, inHost == hosts[host].entry {
                    if on, arguments.count > 1 { hosts[host].overrideList = location }
                    hosts[host].overrideCodes = codes
                } else if inHost == nil {
                    if on, arguments.count > 1 { serverOverrideList = location }
                    serverOverrideCodes = codes
                }
            case "servername" where !arguments.isEmpty:
                if let host = hosts.indices.last, inHost == hosts[host].entry, hosts[host].host == nil { hosts[host].host = Self.hostName(arguments[0]) }
            case "serverroot" where !arguments.isEmpty:
                replace(entry, with: ["ServerRoot", context.copy(of: serverRoot)], "ServerRoot \(arguments[0]): its copy in the sandbox")
            case "user", "group":
                if context.asRoot {
                    replace(entry, with: [name == "user" ? "User" : "Group", name == "user" ? "nobody" : "nogroup"], "\(name) \(arguments.joined()): nobody")
                } else {
                    replace(entry, with: [], "\(name): the sandbox does not run as root")
                }
            case "sslengine" where inHost != nil && context.certificate != nil && arguments.first?.lowercased() == "on":
                // The virtual host keeps TLS, with the sandbox's certificate: its sites are asked over TLS.
                tlsHosts.insert(inHost!)
            case "sslcertificatefile" where context.certificate != nil && !arguments.isEmpty,
                "sslcertificatekeyfile" where context.certificate != nil && !arguments.isEmpty:
                let file = name == "sslcertificatefile" ? context.certificate!.certificate : context.certificate!.key
                replace(entry, with: [self.word(entry, 0), file], "\(name) \(arguments[0]): the sandbox's throwaway one")
            case _ where name.hasPrefix("ssl"):
                replace(
                    entry, with: [],
                    "\(name): " + (context.certificate == nil || name == "sslengine" ? "sandbox sites speak plain HTTP" : "not in the sandbox"))
            case _ where Self.logs.contains(name) && !arguments.isEmpty:
                replace(
                    entry, with: [self.word(entry, 0), context.folder + "/log/\(name).log"] + arguments.dropFirst(),
                    "\(name) \(arguments[0]): into the sandbox")
            case _ where Self.stateFiles[name] != nil && !arguments.isEmpty:
                replace(entry, with: [self.word(entry, 0), context.folder + "/" + Self.stateFiles[name]!], "\(name) \(arguments[0]): into the sandbox")
            case "mutex" where !arguments.isEmpty:
                replace(entry, with: ["Mutex", "file:" + context.folder + "/lock"] + arguments.dropFirst(), "Mutex \(arguments[0]): its files in the sandbox")
            case "timeout", "proxytimeout":
                if let seconds = Int(arguments.first ?? ""), seconds > Self.timeoutSeconds {
                    replace(entry, with: [self.word(entry, 0), "\(Self.timeoutSeconds)"], "\(name) \(seconds): 3, so a silent upstream is given up in time")
                }
            case "loadmodule" where arguments.count >= 2 && !arguments[1].hasPrefix("/"):
                replace(entry, with: ["LoadModule", arguments[0], serverRoot + "/" + arguments[1]], "LoadModule \(arguments[0]): the installed module")
            case "include", "includeoptional":
                guard let pattern = arguments.first, pattern.hasPrefix("/") else { continue }
                replace(entry, with: [self.word(entry, 0), context.copy(of: pattern)], "\(name) \(pattern): its copy in the sandbox")
            case "directory" where arguments.first == "/":
                // `<Directory />` covers every folder, the sandbox's included: it stays as written.
                continue
            case _ where Self.installed.contains(name) && !arguments.isEmpty:
                let position = name == "documentroot" || name == "directory" ? 0 : arguments.count - 1
                var changed = arguments
                let mapped = installed(arguments[position], folder: name == "documentroot" || name == "directory")
                if name == "documentroot" || (name == "alias" && arguments.count == 2) {
                    let host = hosts.indices.last.flatMap { inHost == hosts[$0].entry ? $0 : nil }
                    var files = host.map { hosts[$0].files } ?? serverFiles
                    if name == "documentroot" { files.documentRoot = mapped.path } else { files.aliases.append((arguments[0], mapped.path)) }
                    if let host { hosts[host].files = files } else { serverFiles = files }
                }
                guard mapped.path != arguments[position] else { continue }
                changed[position] = mapped.path
                replace(
                    entry, with: (entry.isBlock ? ["<" + self.word(entry, 0)] : [self.word(entry, 0)]) + changed + (entry.isBlock ? [">"] : []), mapped.reason,
                    section: entry.isBlock)
            case "proxypass", "proxypassmatch", "proxypassreverse", "balancermember":
                proxied(entry, name: name, arguments: arguments)
                var route: SandboxPlan.Route?
                if name == "proxypass", arguments.count >= 2, arguments[0].hasPrefix("/"), arguments[1] != "!" {
                    route = SandboxPlan.Route(path: arguments[0], location: location, upstreamLocation: location)
                } else if name == "proxypassmatch", arguments.count >= 2, arguments[1] != "!", let path = Self.sample(arguments[0], fileName: false) {
                    // A path the expression takes.
                    route = SandboxPlan.Route(path: path, location: location, upstreamLocation: location)
                } else if name.hasPrefix("proxypass"), name != "proxypassreverse", let first = arguments.first, Self.isProxyTarget(first),
                    let section = open.last, let path = sectionPath(section)
                {
                    // `ProxyPass URL` in a `<Location>`, `ProxyPassMatch URL` in a `<LocationMatch>`.
                    route = SandboxPlan.Route(path: path, location: config.location(of: config.entries[section]), upstreamLocation: location)
                }
                if let route {
                    if let host = hosts.indices.last, inHost == hosts[host].entry { hosts[host].routes.append(route) } else { serverRoutes.append(route) }
                }
                // The prefixes ProxyPass takes or leaves: on its line, or a `<Location>`'s own.
                var taken: ProxyPrefix?
                if name == "proxypass", arguments.count >= 2, arguments[0].hasPrefix("/") {
                    taken = ProxyPrefix(path: arguments[0], excluded: arguments[1] == "!", inSection: false)
                } else if name == "proxypass", let first = arguments.first, !first.hasPrefix("/"), let section = open.last,
                    self.name(config.entries[section]) == "location", let path = sectionPath(section)
                {
                    taken = ProxyPrefix(path: path, excluded: first == "!", inSection: true)
                }
                if let prefix = taken {
                    if let host = hosts.indices.last, inHost == hosts[host].entry {
                        hosts[host].proxyPasses.append(prefix)
                    } else {
                        serverProxyPasses.append(prefix)
                    }
                }
            case "sethandler" where arguments.first?.lowercased().hasPrefix("proxy:") == true:
                // `proxy:fcgi://…` or `proxy:unix:/run/php.sock|fcgi://localhost/`: the scheme after the socket's `|`.
                let handler = arguments[0].dropFirst("proxy:".count)
                let url = handler.split(separator: "|").last.map(String.init) ?? String(handler)
                let fake = Self.fake(url, context: context) ?? ("fcgi://" + context.deadUpstream)
                let scheme = fake.prefix { $0 != ":" }
                let listening = !fake.contains(context.deadUpstream)
                replace(
                    entry, with: ["SetHandler", "proxy:" + fake],
                    "SetHandler \(arguments[0]): " + (listening ? "the fake upstream (\(scheme))" : "nothing listens there (detour does not speak \(scheme))"))
                if !listening { notProbed.append((location, "SetHandler \(arguments[0]): detour's fake upstream does not speak \(scheme)")) }
                // The section it is in says which requests it takes: a path that reaches it is probed.
                if let section = open.last, let path = sectionPath(section) {
                    let route = SandboxPlan.Route(path: path, location: config.location(of: config.entries[section]), upstreamLocation: location)
                    if let host = hosts.indices.last, inHost == hosts[host].entry { hosts[host].routes.append(route) } else { serverRoutes.append(route) }
                }
            case "rewriterule" where arguments.count >= 3 && ApacheRewriteRule.proxies(ApacheRewriteRule.flags(arguments[2])):
                if let url = Self.fake(arguments[1], context: context) {
                    replace(entry, with: ["RewriteRule", arguments[0], url] + arguments.dropFirst(2), "RewriteRule [P] \(arguments[1]): the fake upstream")
                }
                if testsFiles {
                    if let host = hosts.indices.last, inHost == hosts[host].entry {
                        hosts[host].proxiesMissingFiles = true
                    } else {
                        serverProxiesMissingFiles = true
                    }
                }
                // Outside a section its pattern is matched against the whole path: one it takes is probed.
                if open.last == inHost, let path = Self.sample(arguments[0], fileName: false), path.hasPrefix("/") {
                    let route = SandboxPlan.Route(path: path, location: location, upstreamLocation: location)
                    if let host = hosts.indices.last, inHost == hosts[host].entry { hosts[host].routes.append(route) } else { serverRoutes.append(route) }
                }
            case "errordocument" where arguments.count >= 2:
                let code = Int(arguments[0])
                // A 502 and above is raised only for requests that meet the upstream, which no
                // `<Directory>` or `<Files>` section is ever applied to: that page is never sent.
                if let code, let section = open.last, ["directory", "directorymatch", "files", "filesmatch"].contains(self.name(config.entries[section])) {
                    guard code <= 501 else { continue }
                    // A lower one, only a request served from that folder failing on its own
                    // (an unreadable file, a broken .htaccess) gets: no probe makes it fail so.
                    let written = self.word(config.entries[section], 0)
                    notProbed.append((location, "ErrorDocument \(code) in <\(written)>: no probe makes Apache fail with \(code) for a file it serves itself"))
                }
                // Whatever it names (a text, a URL), the code has its answer here: a URL's is a
                // redirect (but for 401, which Apache sends as a link).
                let redirects = arguments[1].contains("://") && code != 401
                if let code, let host = hosts.indices.last, inHost == hosts[host].entry {
                    let section = open.last.flatMap { $0 == hosts[host].entry ? nil : $0 }
                    // `<If>` too for a 502 and above, as `detour check` has it: its condition is
                    // about the request, and holds for those that meet the upstream alike.
                    let everywhere = section.map { section in
                        let name = self.name(config.entries[section])
                        return (name == "location" && sectionPath(section) == "/") || (name == "if" && code > 501)
                    }
                    if everywhere ?? true {
                        hosts[host].wholeSiteCodes.insert(code)
                    }
                    if let section, self.name(config.entries[section]) == "location", config.arguments(of: config.entries[section]).count == 1,
                        let path = sectionPath(section)
                    {
                        hosts[host].locationCodes.append((path, code, location))
                    }
                    hosts[host].pageLines[code] = hosts[host].pageLines[code] ?? location
                    if redirects { hosts[host].redirectLines[code] = hosts[host].redirectLines[code] ?? location }
                } else if let code, inHost == nil {
                    serverPageLines[code] = serverPageLines[code] ?? location
                    if redirects { serverRedirectLines[code] = serverRedirectLines[code] ?? location }
                }
                // A local page: asked for directly, it should be there for visitors to get.
                guard arguments[1].hasPrefix("/") else { continue }
                let page = SandboxPlan.PageTarget(codes: Int(arguments[0]).map { [$0] } ?? [], directive: location, reachableRule: nil)
                let route = SandboxPlan.Route(path: arguments[1], location: location, page: page)
                if let host = hosts.indices.last, inHost == hosts[host].entry { hosts[host].routes.append(route) } else { serverRoutes.append(route) }
            case "location", "locationmatch", "files", "filesmatch":
                guard let path = sectionPath(index) else {
                    if name.hasSuffix("match") || arguments.first == "~" {
                        notProbed.append((location, "<\(name) \(arguments.joined(separator: " "))>: no path was found that it matches"))
                    }
                    continue
                }
                let route = SandboxPlan.Route(path: path, location: location)
                if let host = hosts.indices.last, inHost == hosts[host].entry { hosts[host].routes.append(route) } else { serverRoutes.append(route) }
            default:
                continue
            }
        }
        // Directives outside every virtual host apply in each; the main server answers ports none takes.
        for host in hosts {
            let pageLines = host.pageLines.merging(serverPageLines) { own, _ in own }
            let redirectLines = host.redirectLines.merging(serverRedirectLines.filter { host.pageLines[$0.key] == nil }) { own, _ in own }
            let files = LocalFiles(documentRoot: host.files.documentRoot ?? serverFiles.documentRoot, aliases: host.files.aliases + serverFiles.aliases)
            // The pages the host sends: not the main server's for codes it names its own page
            // for everywhere, nor, where nothing proxies, any for a 502 and above, which it
            // never raises (as `detour check` has it).
            let proxies = host.firstProxy != nil || serverFirstProxy != nil
            // A 502 and above, where the paths that proxy are known, only on one whose
            // `<Location>` names no page of its own for it: otherwise the server's or the host's
            // page for it is never sent there (as `detour check` has it).
            let proxied = Self.proxiedPaths(host.routes + serverRoutes, proxyingLines: host.proxyingLines + serverProxyingLines)
            let raised = { (code: Int) in code <= 501 || proxies }
            let raisedOutsideLocations = { (code: Int) in
                raised(code)
                    && (code <= 501
                        || proxied.map { paths in
                            paths.contains { path in !host.locationCodes.contains { $0.code == code && ApacheScope.prefix($0.path, covers: path) } }
                        } ?? true)
            }
            // A 500 or 501 Apache raises itself only on faults no probe makes, and a 504 only
            // for a FastCGI or AJP upstream, unless ProxyErrorOverride replaces the upstream's
            // own: what answers them there is not seen.
            let overrides = host.overrideCodes ?? serverOverrideCodes
            let overridden = { (code: Int) in proxies && overrides.map { $0.isEmpty || $0.contains(code) } == true }
            for (code, line) in pageLines where !overridden(code) && (code == 500 || code == 501 || (code == 504 && !timesOutAs504)) {
                let reason = "ErrorDocument \(code): no probe makes Apache raise \(code) itself here (ProxyErrorOverride does not replace the upstream's)"
                if !notProbed.contains(where: { $0.location == line }) { notProbed.append((line, reason)) }
            }
            let serverPages = serverRoutes.filter { route in route.page.map { page in !page.codes.allSatisfy(host.wholeSiteCodes.contains) } ?? true }
            let sent = (host.routes + serverPages).filter { route in
                guard let page = route.page else { return true }
                let inLocation = host.locationCodes.contains { $0.line == page.directive }
                return page.codes.isEmpty || page.codes.contains(where: inLocation ? raised : raisedOutsideLocations)
            }
            let routes = Self.merged(sent).map { route in
                var route = route
                route.pageLines = pageLines
                route.redirects = redirectLines
                // A page no ProxyPass takes reaches the upstream by a rule that asks for its file
                // (`RewriteCond … !-f`): there, a missing file is why.
                let proxyPass = ProxyPrefix.taking(route.path, from: serverProxyPasses + host.proxyPasses)
                if route.page != nil, host.proxiesMissingFiles || serverProxiesMissingFiles, proxyPass.map({ !$0.excluded }) != true,
                    let file = files.file(for: route.path)
                {
                    route.page?.fileMissing = !FileManager.default.fileExists(atPath: file)
                }
                // A path no ProxyPass takes reaches the upstream, if at all, through another of the
                // host's proxying lines (a `[P]` rule, whose conditions decide which requests).
                if route.page == nil, route.upstreamLocation == nil { route.upstreamLocation = host.firstProxy }
                return route
            }
            // A port of the host no Listen opens is served by nothing: Apache starts without it.
            if !Set(host.ports).isSubset(of: listened) {
                let location = config.location(of: config.entries[host.entry])
                notProbed.append((location, "<VirtualHost>: a port of it no Listen opens, where Apache serves nothing"))
            }
            for port in Set(host.ports).intersection(listened).sorted() {
                var site = SandboxPlan.Site(
                    host: host.host ?? "127.0.0.1", port: port, location: config.location(of: config.entries[host.entry]), routes: routes)
                site.tls = tlsHosts.contains(host.entry)
                // As `detour check` has it: the host lacks ProxyErrorOverride, one cause, or its
                // status list leaves codes out.
                site.passThroughLocation = host.overrideList ?? serverOverrideList ?? host.firstProxy ?? serverFirstProxy
                sites.append(site)
            }
        }
        let main = SourceLocation(path: config.files.first ?? "")
        for port in Set(listened).subtracting(hosts.flatMap(\.ports)).sorted() {
            let routes = Self.merged([.init(path: "/", location: main)] + serverRoutes).map { route in
                var route = route
                route.pageLines = serverPageLines
                route.redirects = serverRedirectLines
                return route
            }
            var site = SandboxPlan.Site(host: "127.0.0.1", port: port, location: main, routes: routes)
            site.passThroughLocation = serverOverrideList ?? serverFirstProxy
            sites.append(site)
        }
    }

    /// The paths `routes` send to the upstream, or nil when a line that proxies gave no route
    /// (a `[P]` rule inside a section): which paths it takes is then not known.
    private static func proxiedPaths(_ routes: [SandboxPlan.Route], proxyingLines: [SourceLocation]) -> [String]? {
        let proxying = routes.filter { $0.page == nil && $0.upstreamLocation != nil }
        let routed = Set(proxying.compactMap(\.upstreamLocation))
        guard proxyingLines.allSatisfy(routed.contains) else { return nil }
        return proxying.map(\.path)
    }

    /// What one `<VirtualHost>` holds that decides its routes.
    private struct VirtualHostRoutes {
        var entry: Int
        var host: String? = nil
        var ports: [Int]
        var routes: [SandboxPlan.Route]
        var files = LocalFiles()
        /// Its `ProxyPass PATH URL|!` lines: the path, and whether `!` keeps it local.
        var proxyPasses: [ProxyPrefix] = []
        /// Each code's ErrorDocument line in the host.
        var pageLines: [Int: SourceLocation] = [:]
        /// Whether one of its `[P]` rules comes after a RewriteCond that tests a file.
        var proxiesMissingFiles = false
        /// Each code's ErrorDocument to a URL in the host: Apache answers with a redirect.
        var redirectLines: [Int: SourceLocation] = [:]
        /// The codes the host names a page for on every path (its own line, or `<Location />`'s):
        /// the main server's pages for them are never sent there.
        var wholeSiteCodes: Set<Int> = []
        /// The codes a `<Location PATH>` of the host names a page for, with the line.
        var locationCodes: [(path: String, code: Int, line: SourceLocation)] = []
        /// The host's first line that proxies (ProxyPass to a URL, `[P]`, a `proxy:` handler).
        var firstProxy: SourceLocation? = nil
        /// Every line of it that proxies.
        var proxyingLines: [SourceLocation] = []
        /// Its `ProxyErrorOverride On` with a status list.
        var overrideList: SourceLocation? = nil
        /// The codes its `ProxyErrorOverride On` replaces (empty: all; nil: off or not said).
        var overrideCodes: Set<Int>? = nil
    }

    /// A path ProxyPass sends to the upstream or (`!`) keeps local.
    struct ProxyPrefix {
        var path: String
        var excluded: Bool
        /// Written in a `<Location>` (`ProxyPass URL`) rather than with its path.
        var inSection: Bool

        /// The one that decides `path`, among those in effect in the order written (the main
        /// server's first): the last `<Location>` one that takes it, which Apache tries before
        /// any ProxyPass line, else the first line that does.
        static func taking(_ path: String, from prefixes: [ProxyPrefix]) -> ProxyPrefix? {
            let taking = prefixes.filter { ApacheScope.prefix($0.path, covers: path) }
            return taking.last(where: \.inSection) ?? taking.first { !$0.inSection }
        }
    }

    /// Where a host's local files are in the sandbox: its DocumentRoot and Aliases, mapped.
    private struct LocalFiles {
        var documentRoot: String? = nil
        var aliases: [(prefix: String, path: String)] = []

        /// The file a URI names (the longest Alias prefix, else under DocumentRoot).
        func file(for uri: String) -> String? {
            if let alias = aliases.filter({ uri.hasPrefix($0.prefix) }).max(by: { $0.prefix.count < $1.prefix.count }) {
                return alias.path + "/" + uri.dropFirst(alias.prefix.count)
            }
            return documentRoot.map { $0 + "/" + uri.drop { $0 == "/" } }
        }
    }

    /// One route per path, each with the ProxyPass that takes it (its own, else the longest
    /// proxied prefix of its path): what that upstream sends is named at that line.
    static func merged(_ routes: [SandboxPlan.Route]) -> [SandboxPlan.Route] {
        let proxies = routes.filter { $0.upstreamLocation != nil }
        var merged: [SandboxPlan.Route] = []
        for route in routes where route.page == nil && !merged.contains(where: { $0.path == route.path }) {
            var route = route
            if route.upstreamLocation == nil {
                route.upstreamLocation = proxies.filter { route.path.hasPrefix($0.path) }.max { $0.path.count < $1.path.count }?.upstreamLocation
            }
            merged.append(route)
        }
        // An error page's URI is asked for once per line that names it: each is judged there.
        return merged + routes.filter { $0.page != nil }
    }

    // MARK: Proxies

    private mutating func proxied(_ entry: FlatEntry<ApacheName>, name: String, arguments: [String]) {
        // In a `<Location>` the path is the section's, and the URL comes first.
        let position = name == "balancermember" || arguments.first.map(Self.isProxyTarget) == true ? 0 : 1
        guard arguments.count > position, let url = Self.fake(arguments[position], context: context) else { return }
        var changed = arguments
        changed[position] = url
        // The worker's own timeouts (`timeout=7200`, `connectiontimeout=`) as the server's: 3 s at most.
        for index in changed.indices.dropFirst(position + 1) {
            let parts = changed[index].split(separator: "=", maxSplits: 1)
            guard parts.count == 2, ["timeout", "connectiontimeout"].contains(parts[0].lowercased()), let seconds = Int(parts[1]), seconds > Self.timeoutSeconds
            else { continue }
            changed[index] = "\(parts[0])=\(Self.timeoutSeconds)"
        }
        replace(entry, with: [word(entry, 0)] + changed, "\(word(entry, 0)) \(arguments[position]): \(url)")
    }

    /// Whether the directive hands requests to an upstream.
    static func proxies(name: String, arguments: [String]) -> Bool {
        switch name {
        case "proxypass", "proxypassmatch": arguments.contains { $0.contains("://") }
        case "rewriterule": arguments.count >= 3 && ApacheRewriteRule.proxies(ApacheRewriteRule.flags(arguments[2]))
        case "sethandler": arguments.first?.lowercased().hasPrefix("proxy:") == true
        default: false
        }
    }

    /// Whether a ProxyPass argument is where requests go (`!` or a URL), not the path they come by.
    static func isProxyTarget(_ argument: String) -> Bool { argument == "!" || argument.contains("://") }

    /// A path that reaches the section at `index`: a `<Location>`'s path, or a string its
    /// expression matches (`<LocationMatch>`, `<Location ~>`; `<FilesMatch>` and `<Files ~>`
    /// against the file's name); nil for a section of another kind.
    private func sectionPath(_ index: Int) -> String? {
        let section = config.entries[index]
        let arguments = config.arguments(of: section)
        let regex = arguments.count == 2 && arguments[0] == "~"
        switch name(section) {
        case "location" where arguments.count == 1 && arguments[0].hasPrefix("/"): return arguments[0]
        case "location" where regex, "locationmatch" where arguments.count == 1: return Self.sample(arguments[arguments.count - 1], fileName: false)
        case "files" where regex, "filesmatch" where arguments.count == 1: return Self.sample(arguments[arguments.count - 1], fileName: true)
        case "files" where arguments.count == 1 && !arguments[0].contains(where: { "*?[".contains($0) }): return "/" + arguments[0]
        default: return nil
        }
    }

    /// A plain path the expression matches: the whole path, or (`fileName`) its last part.
    static func sample(_ pattern: String, fileName: Bool) -> String? {
        guard let regex = ApacheRegex(pattern) else { return nil }
        for candidate in RegexSample.candidates(pattern) where !candidate.isEmpty {
            if fileName {
                // A name of its own before `.php`: a file named only `.php` is one Debian denies.
                for name in candidate.hasPrefix(".") ? ["a" + candidate, candidate] : [candidate] {
                    if !name.contains("/"), RegexSample.isPlainPath("/" + name), regex.matches(name) { return "/" + name }
                }
            } else {
                for path in [candidate, "/" + candidate] where RegexSample.isPlainPath(path) && regex.matches(path) { return path }
            }
        }
        return nil
    }

    /// A proxied URL's fake: `http://fake/path` for HTTP and WebSocket, the fake upstream
    /// speaking FastCGI, SCGI or uwsgi for those, where nothing listens for the others; nil for
    /// what is not a URL (`!`, a balancer, which its members make).
    static func fake(_ url: String, context: SandboxContext) -> String? {
        // `unix:/run/app.sock|uwsgi://app/`: the socket stands for the address, and the fake
        // upstream listens on a port: the URL after the `|` is the one rewritten.
        if url.lowercased().hasPrefix("unix:"), let bar = url.firstIndex(of: "|") {
            return fake(String(url[url.index(after: bar)...]), context: context)
        }
        guard let separator = url.range(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        let rest = url[separator.upperBound...]
        // The path starts at the first `/`, or at a substitution right after the port
        // (`http://127.0.0.1:8181%{REQUEST_URI}`, `http://app$1`): mod_proxy refuses a URL without one.
        // A substitution that opens the address (`http://%{HTTP_HOST}/…`) is the address itself.
        let substitution = rest.firstIndex { $0 == "%" || $0 == "$" }.flatMap { $0 == rest.startIndex ? nil : $0 }
        let slash = rest.firstIndex(of: "/")
        let path = [substitution, slash].compactMap { $0 }.min().map { String(rest[$0...]) } ?? ""
        switch scheme {
        case "http", "https", "ws", "wss", "h2c", "h2": return "http://" + context.upstream + path
        case "balancer": return nil
        case "fcgi": return "fcgi://" + context.upstream(speaking: "fastcgi") + path
        case "scgi": return "scgi://" + context.upstream(speaking: "scgi") + path
        case "uwsgi": return "uwsgi://" + context.upstream(speaking: "uwsgi") + path
        default: return scheme + "://" + context.deadUpstream + path
        }
    }

    // MARK: Lines

    /// The entry's line written anew (a section's opening line when `section`).
    private mutating func replace(_ entry: FlatEntry<ApacheName>, with words: [String], _ reason: String, section: Bool = false) {
        let file = Int(entry.file)
        let line = Int(config.sources[file].words[Int(entry.firstWord)].line)
        if files[file] == nil { files[file] = SourceLines(FileManager.default.contents(atPath: config.paths[file]).map([UInt8].init) ?? []) }
        guard let range = files[file]?.statement(at: line) else { return }
        var text = words.map(Self.quoted).joined(separator: " ")
        if section { text = text.replacingOccurrences(of: " >", with: ">").replacingOccurrences(of: "< ", with: "<") }
        rewrites.append(.init(file: file, range: range, text: text, reason: reason, location: config.location(of: entry)))
    }

    private func word(_ entry: FlatEntry<ApacheName>, _ index: Int) -> String {
        let source = config.sources[Int(entry.file)]
        return source.apacheValue(source.words[Int(entry.firstWord) + index])
    }

    private static func quoted(_ word: String) -> String {
        guard word.isEmpty || word.contains(where: { " \t\"".contains($0) }) else { return word }
        return "\"" + word.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// A path through `--map` (a relative one from ServerRoot); an unmapped one is an empty folder
    /// of the sandbox (made, for a `folder`: DocumentRoot and `<Directory>`).
    private mutating func installed(_ written: String, folder: Bool = false) -> (path: String, reason: String) {
        guard !written.hasPrefix("~"), !written.contains("$") else { return (written, "") }
        let path = written.hasPrefix("/") ? written : serverRoot + "/" + written
        let mapped = PagePathMap.apply(context.maps, to: path)
        if mapped != path { return (mapped, "\(written): \(mapped) (--map)") }
        if folder { unmappedFolders.append(context.folder + "/unmapped" + path) }
        return (context.folder + "/unmapped" + path, "\(written): not mapped, an empty folder (--map \(path)=DIR reads it)")
    }

    // MARK: Addresses

    /// `80`, `*:80`, `[::]:443`, `192.0.2.1:8080 https`: the port.
    static func portKey(_ address: String) -> String {
        let port = address.split(separator: ":").last.map(String.init) ?? address
        return port.allSatisfy(\.isNumber) && !port.isEmpty ? port : "80"
    }

    static func hostName(_ serverName: String) -> String {
        var name = serverName
        if let scheme = name.range(of: "://") { name = String(name[scheme.upperBound...]) }
        return String(name.prefix { $0 != ":" && $0 != "/" })
    }
}
