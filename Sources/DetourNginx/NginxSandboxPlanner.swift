import DetourDiagnostics
import DetourProxyCore
import Foundation

/// Walks a loaded nginx configuration and writes its `SandboxPlan` (see `NginxSandbox`).
struct NginxSandboxPlanner {
    enum Block { case main, http, server, location, upstream, stream, other }

    let view: NginxConfigView
    let context: SandboxContext
    var plan = SandboxPlan()
    /// The names of the `upstream` blocks: a `proxy_pass` to one keeps it (its servers are rewritten).
    var upstreamNames: Set<String> = []
    /// Ports some listen already made the default server of: nginx takes one per address.
    private var defaultPorts: Set<Int> = []
    /// Each server block modelled as `detour check` models it: which location answers a path.
    var models: [NginxDirective: NginxServer] = [:]
    /// The http block's `error_page` lines, which a server without its own inherits.
    private var httpErrorPages: [NginxDirective] = []
    private var cacheFolders = 0

    /// Timeouts longer than this are shortened, so a silent upstream is given up in time.
    static let timeout = "3s"
    static let timeoutSeconds = 3.0
    /// Sandbox ports a `listen … ssl` keeps TLS on, with the sandbox's certificate.
    private(set) var tlsPorts: Set<Int> = []
    /// Directives that name a file TLS needs, or ask visitors for theirs: they go, and where a
    /// listener keeps TLS, the server's certificate and key are the sandbox's (`certificates`).
    static let tlsFiles: Set<String> = [
        "ssl", "ssl_certificate", "ssl_certificate_key", "ssl_trusted_certificate", "ssl_client_certificate", "ssl_dhparam", "ssl_crl",
        "ssl_password_file", "ssl_stapling_file", "ssl_session_ticket_key", "proxy_ssl_certificate", "proxy_ssl_certificate_key",
        "proxy_ssl_trusted_certificate", "proxy_ssl_crl", "proxy_ssl_password_file", "grpc_ssl_certificate", "grpc_ssl_certificate_key",
        "grpc_ssl_trusted_certificate", "uwsgi_ssl_certificate", "uwsgi_ssl_certificate_key", "uwsgi_ssl_trusted_certificate", "ssl_verify_client",
    ]
    static let certificates: Set<String> = ["ssl_certificate", "ssl_certificate_key"]
    /// What the sandbox's command line says instead (`-g 'daemon off; pid …;'`).
    static let commandLine: Set<String> = ["pid", "daemon", "master_process", "lock_file", "working_directory"]
    static let timeouts: Set<String> = ["connect_timeout", "read_timeout", "send_timeout"].reduce(into: []) { all, suffix in
        for module in ["proxy", "fastcgi", "uwsgi", "scgi", "grpc"] { all.insert(module + "_" + suffix) }
    }
    /// Upstreams spoken to in another protocol than HTTP: those the fake upstream speaks
    /// (`gateways`) go to it in that protocol, the others where nothing listens.
    static let otherUpstreams: Set<String> = ["fastcgi_pass", "uwsgi_pass", "scgi_pass", "grpc_pass", "memcached_pass"]
    static let gateways = ["fastcgi_pass": "fastcgi", "uwsgi_pass": "uwsgi", "scgi_pass": "scgi"]
    /// The `upstream` blocks a gateway's pass names, with its protocol: their servers go to
    /// the fake upstream speaking it.
    var gatewayUpstreams: [String: String] = [:]
    /// Whether the walk is in a `limit_except` block, where `set` is not allowed.
    private var insideLimitExcept = false
    /// The `upstream` block the walk is in.
    private var currentUpstream: String?
    /// The locations the walk is in, innermost last.
    private var locations: [SourceLocation] = []
    /// The locations an `auth_request` asks: their `proxy_pass` goes to the auth service that
    /// lets every probe in, so the routes behind it meet the upstream's failures.
    private var authLocations: Set<SourceLocation> = []
    /// Whether the upstream block being walked has more than one server: nginx then counts
    /// each one's failures (`max_fails`, 1 by default) and, all failed, answers without asking.
    private var upstreamHasPeers = false

    init(view: NginxConfigView, context: SandboxContext) {
        self.view = view
        self.context = context
    }

    // MARK: Words and bytes

    private func range(_ directive: NginxDirective, word position: Int) -> Range<Int> {
        view.word(view.entry(directive.index), position).byteRange
    }

    private func file(_ directive: NginxDirective) -> Int { Int(view.entry(directive.index).file) }

    /// From the name to the `;` that ends it.
    private func wholeRange(_ directive: NginxDirective) -> Range<Int> {
        let bytes = view.files[file(directive)].bytes
        var end = range(directive, word: directive.argumentCount).upperBound
        while end < bytes.count, bytes[end] != UInt8(ascii: ";") { end += 1 }
        return range(directive, word: 0).lowerBound..<min(end + 1, bytes.count)
    }

    /// Just after a block's `{`.
    private func blockStart(_ directive: NginxDirective) -> Int {
        let bytes = view.files[file(directive)].bytes
        var at = range(directive, word: directive.argumentCount).upperBound
        while at < bytes.count, bytes[at] != UInt8(ascii: "{") { at += 1 }
        return min(at + 1, bytes.count)
    }

    private mutating func replace(_ directive: NginxDirective, word position: Int, with text: String, _ reason: String) {
        // A directive without that argument (nginx refuses it) is left for nginx to say so.
        guard position >= 1, position <= directive.argumentCount else { return }
        plan.rewrites.append(
            .init(
                file: file(directive), range: range(directive, word: position), text: text, reason: reason,
                location: directive.location(ofArgument: position - 1) ?? directive.location))
    }

    /// Blanks the directive out, its line breaks kept so lines keep their numbers.
    private mutating func remove(_ directive: NginxDirective, _ reason: String) {
        let whole = wholeRange(directive)
        let bytes = view.files[file(directive)].bytes
        let blank = String(whole.map { bytes[$0] == UInt8(ascii: "\n") ? "\n" : " " })
        plan.rewrites.append(.init(file: file(directive), range: whole, text: blank, reason: reason, location: directive.location))
    }

    private mutating func insert(_ text: String, into block: NginxDirective, _ reason: String) {
        let at = blockStart(block)
        plan.rewrites.append(.init(file: file(block), range: at..<at, text: " " + text, reason: reason, location: block.location))
    }

    // MARK: Includes

    /// An absolute include names the copy; a relative one starts at the copied main file's folder already.
    mutating func rewriteIncludes(_ includes: [NginxEntry]) {
        var seen = Set<[Int32]>()
        for entry in includes where entry.wordCount == 2 && seen.insert([entry.file, entry.firstWord]).inserted {
            let word = view.word(entry, 1)
            let pattern = view.value(entry, 1)
            guard pattern.hasPrefix("/") else { continue }
            plan.rewrites.append(
                .init(
                    file: Int(entry.file), range: word.byteRange, text: context.copy(of: pattern), reason: "include \(pattern): its copy in the sandbox",
                    location: view.location(entry, 1)))
        }
    }

    // MARK: The walk

    /// A site's file, whose top is an http block's inside.
    mutating func walkSite(_ directives: some Sequence<NginxDirective>) {
        httpErrorPages = directives.filter { $0.name == "error_page" }
        walk(directives, in: .http)
    }

    mutating func walk(_ directives: some Sequence<NginxDirective>, in block: Block) {
        for directive in directives {
            let name = directive.name
            switch name {
            case "http":
                httpErrorPages = directive.children.filter { $0.name == "error_page" }
                walk(directive.children, in: .http)
            case "server" where block == .http:
                server(directive)
            case "upstream":
                currentUpstream = directive.firstValue
                upstreamHasPeers = directive.children.filter { $0.name == "server" }.count > 1
                walk(directive.children, in: .upstream)
                currentUpstream = nil
            case "location", "if", "limit_except":
                let outer = insideLimitExcept
                insideLimitExcept = name == "limit_except"
                if name == "location" { locations.append(directive.location) }
                walk(directive.children, in: .location)
                if name == "location" { locations.removeLast() }
                insideLimitExcept = outer
            case "server" where block == .upstream:
                upstreamServer(directive)
            case _ where Self.tables.contains(name):
                // Keys and values, not directives: `map $x $y { root /x; }` names no root.
                continue
            case "stream": walk(directive.children, in: .stream)
            default:
                if directive.isBlock {
                    walk(directive.children, in: block == .main ? .other : block)
                } else {
                    rewrite(directive, in: block)
                }
            }
        }
    }

    /// Blocks whose lines are a table's rows.
    static let tables: Set<String> = ["map", "geo", "types", "split_clients", "charset_map", "match"]

    /// One directive that is not a block: rewritten if a local run needs it.
    private mutating func rewrite(_ directive: NginxDirective, in block: Block) {
        let name = directive.name
        let first = directive.firstValue ?? ""
        switch name {
        case _ where Self.commandLine.contains(name):
            remove(directive, "\(name): set by the sandbox's command line")
        case "user" where directive.argumentCount >= 1:
            if context.asRoot {
                let end = range(directive, word: directive.argumentCount)
                plan.rewrites.append(
                    .init(
                        file: file(directive), range: range(directive, word: 1).lowerBound..<end.upperBound, text: "nobody nogroup",
                        reason: "user \(directive.values.joined(separator: " ")): workers run as nobody", location: directive.location))
            } else {
                remove(directive, "user: the sandbox does not run as root")
            }
        case "resolver":
            // nginx resolves a resolver's own name when it loads (`consul:53` in a compose
            // network): here it is the loopback, as upstreams are the fake one. An address no
            // resolver answers (`${DNS}`) stays, for nginx to refuse.
            for (index, value) in directive.values.enumerated() where !value.contains("=") && Self.couldResolve(value) && Self.isHostName(value) {
                let port = value.split(separator: ":", maxSplits: 1).dropFirst().first.map { ":" + $0 } ?? ""
                replace(directive, word: index + 1, with: "127.0.0.1" + port, "resolver \(value): 127.0.0.1\(port), its name is not resolved here")
            }
        case "limit_req", "limit_conn":
            // A probe's dozens of requests a second are not a visitor's: limited, they would be 429s or 503s.
            remove(directive, "\(name): probes are not limited")
        case "error_log" where first != "stderr" && !first.hasPrefix("memory:"):
            replace(directive, word: 1, with: context.folder + "/error.log", "error_log \(first): into the sandbox")
        case "access_log" where first != "off":
            replace(directive, word: 1, with: context.folder + "/access.log", "access_log \(first): into the sandbox")
        case _ where name.hasSuffix("_temp_path"):
            replace(directive, word: 1, with: context.folder + "/temp/" + name, "\(name) \(first): into the sandbox")
        case _ where name.hasSuffix("_cache_path"):
            cacheFolders += 1
            replace(directive, word: 1, with: context.folder + "/cache/\(cacheFolders)", "\(name) \(first): into the sandbox")
        case "root", "alias":
            installedPath(directive, first)
        case _ where Self.certificates.contains(name) && context.certificate != nil:
            let file = name == "ssl_certificate" ? context.certificate!.certificate : context.certificate!.key
            replace(directive, word: 1, with: file, "\(name) \(first): the sandbox's throwaway one")
        case _ where Self.tlsFiles.contains(name):
            let why =
                context.certificate == nil
                ? "sandbox sites speak plain HTTP" : name == "ssl" ? "a listen's ssl says which ports keep TLS" : "not in the sandbox"
            remove(directive, "\(name): " + why)
        case _ where Self.timeouts.contains(name):
            if (Self.seconds(first) ?? 0) > Self.timeoutSeconds {
                replace(directive, word: 1, with: Self.timeout, "\(name) \(first): \(Self.timeout), so a silent upstream is given up in time")
            }
        case "listen":
            // A stream or mail server's: a free port, nothing probed.
            replace(directive, word: 1, with: "127.0.0.1:\(context.port(Self.portKey(first)))", "listen \(first): a free port, not probed")
        case "proxy_pass" where block == .stream:
            replace(directive, word: 1, with: context.deadUpstream, "proxy_pass \(first): nothing listens there (a stream is not probed)")
        case "proxy_pass":
            proxyPass(directive, first)
        case _ where Self.otherUpstreams.contains(name):
            guard !upstreamNames.contains(Self.authority(of: first) ?? first) else { return }
            if let gateway = Self.gateways[name] {
                let scheme = first.contains("uwsgi://") ? "uwsgi://" : ""
                replace(
                    directive, word: 1, with: scheme + context.upstream(speaking: gateway) + keptVariables(first),
                    "\(name) \(first): the fake upstream (\(gateway))")
                return
            }
            let scheme = first.hasPrefix("grpcs://") || first.hasPrefix("grpc://") ? "grpc://" : ""
            replace(directive, word: 1, with: scheme + context.deadUpstream, "\(name) \(first): nothing listens there (detour does not speak it)")
        default:
            break
        }
    }

    /// A route whose request an upstream answers after `try_files` looked for its file
    /// (`try_files $uri =404` before `fastcgi_pass`): in a root that is not mapped, the
    /// application's file is made, empty, in the sandbox's folder, as a deployment has it there.
    private mutating func addPlaceholder(for path: String, in server: NginxServer) {
        guard let location = server.location(for: path), location.upstreamPass != nil, location.tryFiles != nil,
            location.scope.rootDirective != nil, !path.hasSuffix("/")
        else { return }
        let root = location.scope.root.hasPrefix("/") ? location.scope.root : context.serverPrefix + "/" + location.scope.root
        // An unmapped root is the sandbox's empty folder; a mapped one is read from its copy there
        // (as root; otherwise a link to the user's folder, which the sandbox never writes into).
        let mapped = PagePathMap.apply(context.maps, to: root)
        guard !root.contains("$"), mapped == root || mapped == context.folder + "/unmapped" + root else { return }
        // After the location's first `rewrite` that matches it (Nextcloud's `/index.php$request_uri`),
        // the script's own path, as `$fastcgi_script_name` is (`/index.php/x` → `/index.php`).
        let target = location.rewrite(of: path)?.uri ?? path
        let script = target.range(of: ".php/").map { String(target[..<$0.lowerBound]) + ".php" } ?? target
        let file = context.folder + "/unmapped" + root + script
        guard !plan.placeholders.contains(where: { $0.file == file }) else { return }
        let folder = mapped == root ? "the unmapped folder" : "the sandbox's copy of the mapped folder, where it has none"
        plan.placeholders.append((file, location.directive.location, "\(root)\(script): an empty file in \(folder), for try_files to find"))
    }

    /// `root` and `alias` read through `--map` (a relative one from the server's prefix); an
    /// installed path that is not mapped is an empty folder of the sandbox.
    private mutating func installedPath(_ directive: NginxDirective, _ written: String) {
        guard !written.hasPrefix("$") else { return }
        let path = written.hasPrefix("/") ? written : context.serverPrefix + "/" + written
        let mapped = PagePathMap.apply(context.maps, to: path)
        if mapped != path {
            replace(directive, word: 1, with: mapped, "\(directive.name) \(path): \(mapped) (--map)")
        } else {
            replace(
                directive, word: 1, with: context.folder + "/unmapped" + path,
                "\(directive.name) \(path): not mapped, an empty folder (--map \(path)=DIR reads it)")
        }
    }

    private mutating func proxyPass(_ directive: NginxDirective, _ url: String) {
        if let admitting = context.admitting, let location = locations.last, authLocations.contains(location),
            let authority = Self.authority(of: url), !upstreamNames.contains(authority)
        {
            let schemeEnd = url.range(of: "://")!.upperBound
            let rest = url[schemeEnd...].dropFirst(authority.count)
            replace(
                directive, word: 1, with: "http://" + admitting + rest + keptVariables(String(url[..<rest.startIndex])),
                "proxy_pass \(url): an auth service that lets every probe in, so the routes behind it meet the upstream's failures")
            return
        }
        guard let authority = Self.authority(of: url) else {
            // A URL entirely in a variable (`proxy_pass $backend;`).
            replace(directive, word: 1, with: "http://" + context.upstream + keptVariables(url), "proxy_pass \(url): the fake upstream")
            return
        }
        guard !upstreamNames.contains(authority), Self.hasValidPort(authority) else { return }
        let schemeEnd = url.range(of: "://")!.upperBound
        let rest = url[schemeEnd...].dropFirst(authority.count)
        let scheme = url[..<schemeEnd].replacingOccurrences(of: "https://", with: "http://").replacingOccurrences(of: "grpcs://", with: "grpc://")
        replace(
            directive, word: 1, with: scheme + context.upstream + rest + keptVariables(String(url[..<rest.startIndex])),
            "proxy_pass \(url): the fake upstream (plain HTTP)")
    }

    /// For an address with variables that the fake upstream replaces, a `set` of them after
    /// it: nginx still compiles them, and refuses one nothing defines (`unknown "backend"
    /// variable`) as it does the configuration as written. Not where `set` is not allowed.
    private func keptVariables(_ replaced: String) -> String {
        guard replaced.contains("$"), !replaced.contains("\""), !insideLimitExcept else { return "" }
        return "; set $detour_variables \"\(replaced)\""
    }

    /// Whether `address` (`host:port`, `[v6]:port`, `unix:/path`) is one a resolver could
    /// answer: a host name holds letters, digits, `-`, `.` and `_` only.
    static func couldResolve(_ address: String) -> Bool {
        guard !address.hasPrefix("unix:"), !address.hasPrefix("[") else { return true }
        let host = address.split(separator: ":", maxSplits: 1).first ?? ""
        return !host.isEmpty && host.allSatisfy { $0.isLetter || $0.isNumber || "-._".contains($0) }
    }

    /// Whether `address`'s host is a name, not an IPv4 or IPv6 address.
    static func isHostName(_ address: String) -> Bool {
        guard !address.hasPrefix("["), !address.hasPrefix("unix:") else { return false }
        let host = address.split(separator: ":", maxSplits: 1).first ?? ""
        return host.contains { $0.isLetter } && !address.contains("::")
    }

    /// `host:port` of `scheme://host:port/path`, `unix:/path:` included; nil without a scheme.
    static func authority(of url: String) -> String? {
        guard let start = url.range(of: "://")?.upperBound else { return nil }
        let rest = url[start...]
        if rest.hasPrefix("unix:") {
            let path = rest.dropFirst(5)
            return "unix:" + (path.firstIndex(of: ":").map { String(path[...$0]) } ?? String(path))
        }
        return String(rest.prefix { $0 != "/" })
    }

    private mutating func upstreamServer(_ directive: NginxDirective) {
        // An address no resolver resolves anywhere (`${BACKEND}`, a template not rendered) stays
        // as written: nginx refuses it as it does on the user's machine.
        guard let address = directive.firstValue, Self.hasValidPort(address), Self.couldResolve(address) else { return }
        // In a group of servers, failures are not counted (`max_fails=0`): one upstream mode's
        // failures would otherwise mark every server down for the next modes' probes, which
        // would meet nginx's "no live upstreams" instead of the upstream.
        let values = directive.values
        let written = values.indices.first { values[$0].hasPrefix("max_fails=") }
        let uncounted = upstreamHasPeers && written == nil ? " max_fails=0" : ""
        if upstreamHasPeers, let written, values[written] != "max_fails=0" {
            replace(
                directive, word: written + 1, with: "max_fails=0", "\(values[written]): max_fails=0, so one mode's failures do not mark it down for the next")
        }
        let note = uncounted.isEmpty ? "" : ", max_fails=0 so one mode's failures do not mark it down for the next"
        // Its other parameters stay: those this nginx refuses (NGINX Plus's `resolve`) are its test's to say.
        if let gateway = currentUpstream.flatMap({ gatewayUpstreams[$0] }) {
            replace(
                directive, word: 1, with: context.upstream(speaking: gateway) + uncounted, "upstream server \(address): the fake upstream (\(gateway))\(note)")
            return
        }
        replace(directive, word: 1, with: context.upstream + uncounted, "upstream server \(address): the fake upstream\(note)")
    }

    // MARK: Servers

    private mutating func server(_ directive: NginxDirective) {
        let children = Array(directive.children)
        var ports: [Int] = []
        for listen in children where listen.name == "listen" {
            if let port = self.listen(listen, seen: ports) { ports.append(port) }
        }
        if ports.isEmpty {
            let port = context.port("80")
            ports.append(port)
            insert("listen 127.0.0.1:\(port);", into: directive, "no listen (nginx's *:80): 127.0.0.1:\(port)")
        }
        let names = children.filter { $0.name == "server_name" }.flatMap(\.values)
        let host =
            names.first { name in !name.isEmpty && name != "_" && !name.hasPrefix("~") && !name.contains("*") && !name.hasPrefix(".") && !name.contains("$") }
            ?? "127.0.0.1"
        var routes: [SandboxPlan.Route] = []
        collectRoutes(children, server: models[directive], prefix: "", into: &routes)
        if !routes.contains(where: { $0.path == "/" }) {
            routes.insert(Self.route("/", at: directive.location, in: models[directive], passing: nil), at: 0)
        }
        if let model = models[directive] {
            routes += Self.serverConditionRoutes(children, server: model)
            routes += raiseRoutes(children, server: directive, model: model)
        }
        for page in pageRoutes(children, server: directive) {
            routes.removeAll { $0.path == page.path }
            routes.append(page)
        }
        let headers = models[directive].map(Self.successHeaders) ?? []
        authLocations = Set((models[directive]?.authServiceLocations ?? []).map(\.directive.location))
        for port in ports {
            var site = SandboxPlan.Site(host: host, port: port, location: directive.location, routes: routes)
            site.successHeaders = headers
            plan.sites.append(site)
        }
        if let model = models[directive] {
            for route in routes where route.page == nil && !route.asksMissingFile && route.rerunPages == nil { addPlaceholder(for: route.path, in: model) }
        }
        walk(children.filter { $0.name != "listen" }, in: .server)
        addTimeoutsIfMissing(children, in: directive)
    }

    /// Rewrites one `listen`; its port, or nil when the server listens there already.
    private mutating func listen(_ directive: NginxDirective, seen: [Int]) -> Int? {
        // A listen nginx refuses stays as written: the sandbox must not make it acceptable.
        guard let address = directive.firstValue, Self.hasValidPort(address) else { return nil }
        let port = context.port(Self.portKey(address))
        if seen.contains(port) {
            remove(directive, "listen \(address): the same sandbox port as the server's listen before it")
            return nil
        }
        var text = "127.0.0.1:\(port)"
        let values = directive.values
        if values.contains(where: { $0 == "default_server" || $0 == "default" }), defaultPorts.insert(port).inserted { text += " default_server" }
        var dropped = values.dropFirst().filter { $0 != "default_server" && $0 != "default" }
        // TLS stays where the sandbox has a certificate to serve: `$https`, `$scheme` and
        // redirects to HTTPS are then decided as for visitors.
        let tls = dropped.contains("ssl") && context.certificate != nil
        if tls {
            text += " ssl"
            dropped.removeAll { $0 == "ssl" }
            tlsPorts.insert(port)
        }
        let end = range(directive, word: directive.argumentCount).upperBound
        plan.rewrites.append(
            .init(
                file: file(directive), range: range(directive, word: 1).lowerBound..<end, text: text,
                reason: "listen \(values.joined(separator: " ")): \(text)"
                    + (dropped.isEmpty
                        ? "" : " (\(dropped.joined(separator: ", ")) dropped: \(tls ? "TLS kept, with the sandbox's certificate" : "plain HTTP"))"),
                location: directive.location))
        return port
    }

    /// Whether an address's port, if it names one, is one nginx takes (1 to 65535).
    static func hasValidPort(_ address: String) -> Bool {
        guard let port = Int(port(of: address)) else { return true }
        return (1...65535).contains(port)
    }

    /// What identifies a listen socket: its port (`80` for `80`, `*:80` and `[::]:80` alike),
    /// after its address when it names one (`10.0.0.1:80`). nginx hands a connection to a named
    /// address only to the servers that listen on that address, never to the wildcard's, so
    /// each such address is a sandbox port of its own.
    static func portKey(_ address: String) -> String {
        let port = port(of: address)
        guard !address.hasPrefix("unix:"), !address.allSatisfy(\.isNumber) else { return port }
        let host = address.hasSuffix("]") || !address.contains(":") ? address : String(address[..<address.lastIndex(of: ":")!])
        return ["", "*", "0.0.0.0", "[::]"].contains(host) ? port : host + ":" + port
    }

    /// A listen address's port: `80` where it names none; a socket's path for `unix:`.
    private static func port(of address: String) -> String {
        if address.hasPrefix("unix:") { return address }
        if address.allSatisfy(\.isNumber) { return address }
        if let colon = address.lastIndex(of: ":"), !address.hasSuffix("]") {
            let port = address[address.index(after: colon)...]
            if !port.isEmpty, port.allSatisfy(\.isNumber) { return String(port) }
        }
        return "80"
    }

    /// Each prefix and exact location's path, in order, nested ones included, and for each
    /// regular expression a path nginx routes to it (`prefix`: the enclosing location's path,
    /// which a nested one's must start with); the others are listed as not probed.
    private mutating func collectRoutes(
        _ directives: [NginxDirective], server: NginxServer?, prefix: String, into routes: inout [SandboxPlan.Route]
    ) {
        for location in directives where location.name == "location" {
            let values = location.values
            let children = Array(location.children)
            // Visitors cannot ask for an internal location: nginx answers 404 for it.
            let isInternal = children.contains { $0.name == "internal" }
            let upstream = children.first { $0.name == "proxy_pass" }
            let path: String?
            switch values.count {
            case 1 where values[0].hasPrefix("@"): path = nil
            case 1: path = values[0]
            case 2 where values[0] == "=" || values[0] == "^~": path = values[1]
            default: path = nil
            }
            var asked: String?
            if isInternal {
                // Not a visitors' route.
            } else if let path, path.hasPrefix("/") {
                asked = path
            } else if (values.first ?? "").hasPrefix("@") {
                // Named: only the configuration sends requests there.
            } else if let server, let sample = Self.regexPath(to: location, in: server, under: prefix) {
                asked = sample
            } else {
                plan.notProbed.append((location.location, "location \(values.joined(separator: " ")): no path was found that nginx routes to it"))
            }
            if let asked {
                routes.append(Self.route(asked, at: location.location, in: server, passing: upstream))
                if let server, let missing = Self.missingFileRoute(in: location, server: server, path: asked) { routes.append(missing) }
            }
            collectRoutes(children, server: server, prefix: path ?? prefix, into: &routes)
        }
    }

    /// For a location whose own `error_page` drops the inherited page for 404, a route asking
    /// it for a file that is not there: the 404 shows whether any page answers it.
    private static func missingFileRoute(in directive: NginxDirective, server: NginxServer, path: String) -> SandboxPlan.Route? {
        guard let location = server.allLocations.first(where: { $0.directive == directive }), location.definesErrorPages,
            location.match != .exact, let first = location.scope.errorPages.first
        else { return nil }
        let dropped = DroppedInheritedPagesRule.droppedCodes(location)
        guard dropped.contains(404) else { return nil }
        // A name of its own in the location's path: `/downloads/` → `/downloads/detour-missing`,
        // `/a.php` → `/detour-missing-a.php`.
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        let candidates = [
            path + (path.hasSuffix("/") ? "" : "/") + "detour-missing",
            String(path[...slash]) + "detour-missing-" + path[path.index(after: slash)...],
        ]
        guard let missing = candidates.first(where: { server.location(for: $0) === location }) else { return nil }
        var route = SandboxPlan.Route(path: missing, location: directive.location)
        route.droppedPages = (first.directive.location, dropped, NginxRules.inheritedErrorPageDropped.id)
        route.asksMissingFile = true
        return route
    }

    /// Each error page URI the server's `error_page` lines name (or the http block's, which it
    /// inherits when it names none; `$status` read as each code), as a route asked for directly,
    /// placed at the location nginx picks for it; where none does, the server's root answers
    /// it, placed (as `detour check` places it) at the server's first such page. Not when the
    /// location is `internal` (asking tells nothing then).
    private func pageRoutes(_ children: [NginxDirective], server: NginxDirective) -> [SandboxPlan.Route] {
        guard let model = models[server] else { return [] }
        let serverLevel = serverErrorPages(children)
        let errorPages = serverLevel + Self.all(children.filter { $0.name != "error_page" }) { $0.name == "error_page" }
        var routes: [SandboxPlan.Route] = []
        var rootPlace: SourceLocation?
        for errorPage in errorPages {
            let values = errorPage.values
            guard let target = values.last?.split(separator: "?").first.map(String.init), target.hasPrefix("/") else { continue }
            let codes = values.compactMap { Int($0) }
            // A sign-in flow's form is for visitors to ask for, not an error page.
            if model.isSignIn(NginxErrorPage(codes: codes, statusOverride: .none, target: target, directive: errorPage)) { continue }
            let uris = target.contains("$status") ? codes.map { target.replacingOccurrences(of: "$status", with: String($0)) } : [target]
            for uri in uris where !uri.contains("$") && !routes.contains(where: { $0.path == uri }) {
                let answering = model.location(for: uri)
                if answering?.isInternal == true { continue }
                var page = SandboxPlan.PageTarget(codes: codes, directive: errorPage.location, reachableRule: NginxRules.errorPageNotInternal.id)
                if let answering, answering.returnDirective != nil {
                    // Not a file to keep from visitors; and a location written for the page's
                    // own URI (`location = /signin { return 200 …; }`) is the page.
                    page.reachableRule = nil
                    if !ReturnedPageRule.isWrittenForPages(answering, uri) { page.returnedRule = NginxRules.returned.id }
                }
                if let answering {
                    routes.append(.init(path: uri, location: answering.directive.location, page: page))
                } else {
                    rootPlace = rootPlace ?? errorPage.endLocation
                    routes.append(.init(path: uri, location: rootPlace!, page: page))
                }
            }
        }
        return routes
    }

    /// For each code whose server-level page is a URI in an `internal` location, a location
    /// only the sandbox has that answers the code (`return 429;`), where it inherits the same
    /// pages: what visitors get when the server raises the code itself (a limit's 429, a body
    /// size's 413), which no other probe meets. The same inside each prefix location with
    /// pages of its own (`location = /app/detour-raise-500` in `location /app/`).
    private mutating func raiseRoutes(_ children: [NginxDirective], server: NginxDirective, model: NginxServer) -> [SandboxPlan.Route] {
        var routes = raised(serverErrorPages(children), under: "/", in: server, scope: model.scope, model: model)
        for location in model.allLocations where location.match == .prefix || location.match == .preferredPrefix {
            let own = location.directive.children.filter { $0.name == "error_page" }
            guard !own.isEmpty, !location.isInternal, location.pattern.hasPrefix("/") else { continue }
            let under = location.pattern.hasSuffix("/") ? location.pattern : location.pattern + "/"
            // Only where the nested location is the one nginx picks for its path.
            routes += raised(own, under: under, in: location.directive, scope: location.scope, model: model) { model.location(for: $0) === location }
        }
        return routes
    }

    /// The raise routes for `errorPages` written in `block`, whose paths start with `under`;
    /// `picked` says whether nginx would send the path to the location added for it.
    private mutating func raised(
        _ errorPages: [NginxDirective], under: String, in block: NginxDirective, scope: NginxScope, model: NginxServer,
        picked: (String) -> Bool = { _ in true }
    ) -> [SandboxPlan.Route] {
        var routes: [SandboxPlan.Route] = []
        var raised: [String] = []
        for errorPage in errorPages {
            let values = errorPage.values
            guard let target = values.last?.split(separator: "?").first.map(String.init), target.hasPrefix("/"), !target.contains("$"),
                model.location(for: target)?.isInternal == true
            else { continue }
            for code in values.compactMap({ Int($0) }) where (400...599).contains(code) && !routes.contains(where: { $0.raises == code }) {
                let path = under + "detour-raise-\(code)"
                guard scope.page(for: code)?.path == target, picked(path) else { continue }
                var route = SandboxPlan.Route(path: path, location: errorPage.location, pageLines: [code: errorPage.location])
                route.raises = code
                // A guard that refuses the page's own request is named at the location serving it.
                if let serving = model.location(for: target) { route.places.own[.protected] = serving.directive.location }
                routes.append(route)
                raised.append("location = \(path) { return \(code); }")
            }
        }
        if !raised.isEmpty {
            insert(raised.joined(separator: " "), into: block, "locations \(under)detour-raise-CODE: the server's own errors, for their internal pages")
        }
        return routes
    }

    /// The server's own `error_page` lines, or the http block's, which it inherits when it names none.
    private func serverErrorPages(_ children: [NginxDirective]) -> [NginxDirective] {
        let own = children.filter { $0.name == "error_page" }
        return own.isEmpty ? httpErrorPages : own
    }

    /// The directives that `matches` among `directives` and the blocks inside them.
    static func all(_ directives: [NginxDirective], _ matches: (NginxDirective) -> Bool) -> [NginxDirective] {
        directives.flatMap { directive in (matches(directive) ? [directive] : []) + all(Array(directive.children), matches) }
    }

    /// A server that sets no timeout of its own gets the short ones: the http block's (if any)
    /// were shortened where they are written.
    private mutating func addTimeoutsIfMissing(_ children: [NginxDirective], in server: NginxDirective) {
        let set = Set(children.map(\.name))
        // proxy's, and those of the gateways the server passes to.
        let used = Set(Self.all(children) { Self.gateways[$0.name] != nil }.map { String($0.name.dropLast("_pass".count)) })
        let modules = ["proxy"] + ["fastcgi", "uwsgi", "scgi"].filter(used.contains)
        let missing = modules.flatMap { module in ["connect", "read", "send"].map { "\(module)_\($0)_timeout" } }.filter { !set.contains($0) }
        guard !missing.isEmpty else { return }
        insert(
            missing.map { "\($0) \(Self.timeout);" }.joined(separator: " "), into: server,
            "\(missing.joined(separator: ", ")) \(Self.timeout): a silent upstream is given up in time")
    }

    /// nginx's time (`60`, `60s`, `1m`, `500ms`, `1h`) in seconds.
    static func seconds(_ value: String) -> Double? {
        let digits = value.prefix { $0.isNumber }
        guard let number = Double(digits) else { return nil }
        switch value.dropFirst(digits.count) {
        case "", "s": return number
        case "ms": return number / 1000
        case "m": return number * 60
        case "h": return number * 3600
        case "d": return number * 86400
        default: return nil
        }
    }
}
