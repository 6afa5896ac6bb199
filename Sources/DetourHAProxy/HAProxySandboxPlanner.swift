import DetourDiagnostics
import DetourProxyCore
import Foundation

/// The line rewrites of `HAProxySandbox`: each line a local run needs changed is written anew
/// from its words (HAProxy's quoting already undone), its indentation and number kept.
struct HAProxySandboxPlanner {
    /// The file's lines, as written.
    let lines: SourceLines
    let context: SandboxContext
    let configFolder: String
    private(set) var rewrites: [SandboxPlan.Rewrite] = []
    private(set) var notProbed: [(location: SourceLocation, reason: String)] = []
    /// Each frontend's and listen section's sandbox ports, by its place.
    private(set) var bindPorts: [SourceLocation: [Int]] = [:]
    /// The sandbox ports whose `bind` keeps `ssl`, with the sandbox's certificate.
    private(set) var tlsPorts: Set<Int> = []
    /// Each frontend's client address for the probes, where it refuses 127.0.0.1
    /// (`HAProxyClientAddress`): its binds accept the PROXY protocol.
    private(set) var clientAddresses: [SourceLocation: String] = [:]

    /// Timeouts longer than this are shortened, so a silent server is given up in time.
    static let timeout = "3s"
    static let timeoutMilliseconds = 3000
    /// Process settings a sandboxed run does without: the command line runs it in the foreground.
    static let processSettings: Set<String> = [
        "daemon", "master-worker", "chroot", "pidfile", "nbproc", "ca-base", "crt-base", "ssl-dh-param-file", "server-state-file",
        "server-state-base", "ulimit-n", "uid", "gid", "node", "localpeer", "set-dumpable", "quiet",
    ]
    static let timeouts: Set<String> = ["connect", "server", "tunnel", "queue"]
    /// The keywords whose lines the sandbox rewrites for their addresses.
    static let addressKeywords: Set<String> = ["bind", "peer", "server", "server-template", "source", "default-server"]
    /// The keywords (besides the HTTP rules) whose lines may name pattern files: an ACL's `-f`,
    /// a map converter's first argument.
    static let patternKeywords: Set<String> = ["acl", "tcp-request", "tcp-response", "use_backend", "use-server", "redirect", "monitor"]
    /// Words after which a path names a file to answer with (`http-request return … file F`).
    static let fileArguments: Set<String> = ["file", "lf-file", "errorfile"]

    /// The server lines HAProxy refuses for TLS with no CA file (`HAProxyServerVerify`).
    let tlsRefusedServers: Set<SourceLocation>

    /// The lines HAProxy refuses while it reads them (an address a keyword does not take): an
    /// address line among them stays as written, so HAProxy's own test refuses it there too.
    let refusedLines: Set<Int>

    init(bytes: [UInt8], context: SandboxContext, configFolder: String, tlsRefusedServers: Set<SourceLocation> = [], refusedLines: Set<Int> = []) {
        lines = SourceLines(bytes)
        self.context = context
        self.refusedLines = refusedLines
        self.configFolder = configFolder
        self.tlsRefusedServers = tlsRefusedServers
    }

    /// The rule keywords an SPOE group is sent from (`http-request send-spoe-group …`).
    static let ruleKeywords: Set<String> = ["http-request", "http-response", "tcp-request", "tcp-response"]
    /// Why the SPOE filters and their actions go: the agents are not run, and an agent that
    /// answers nothing makes HAProxy set its error variable, which configurations deny on.
    static let agentsNotRun = "SPOE agents are not run; the sandbox lets every probe through, as an agent that finds nothing does"

    mutating func rewrite(_ section: HAProxySection) {
        // A `program` is an outside process master-worker mode starts (an SPOE agent, most
        // often): not run in the sandbox, which runs HAProxy without master-worker.
        if section.kind == "program" {
            replace(lineAt: section.location, with: [], "program \(section.name ?? ""): the sandbox runs no outside process")
            for line in section.lines { replace(line, with: [], "program \(section.name ?? "") \(line.keyword): with its section") }
            return
        }
        let isFastCGI = section.lines.contains { $0.keyword == "use-fcgi-app" }
        // Its TLS health checks make HAProxy prepare every server's TLS: a server whose
        // `verify none` is dropped with its options would be refused for want of a CA file.
        let checksOverTLS = section.lines.contains(where: HAProxyServerVerify.connectsOverTLS)
        if ["frontend", "listen"].contains(section.kind), let client = HAProxyClientAddress.needed(section) {
            clientAddresses[section.location] = client
        }
        for line in section.lines {
            let words = line.words.map(\.text)
            if refusedLines.contains(line.number), Self.addressKeywords.contains(line.keyword) { continue }
            switch (section.kind, line.keyword) {
            case ("global", "user"), ("global", "group"):
                if context.asRoot {
                    replace(
                        line, with: [line.keyword, line.keyword == "user" ? "nobody" : "nogroup"], "\(words.joined(separator: " ")): workers run as nobody")
                } else {
                    replace(line, with: [], "\(line.keyword): the sandbox does not run as root")
                }
            case ("global", "stats") where words.count >= 2 && words[1] == "socket":
                replace(line, with: [], "stats socket \(words.count > 2 ? words[2] : ""): no runtime socket in the sandbox")
            case ("global", "maxconn") where (Int(words.count > 1 ? words[1] : "") ?? 0) > 400:
                replace(line, with: ["maxconn", "400"], "maxconn \(words[1]): 400, within this machine's open-file limit")
            case ("global", let keyword) where Self.processSettings.contains(keyword):
                replace(line, with: [], "\(keyword): the sandbox runs HAProxy in the foreground, in its folder")
            case (_, "bind"), ("peers", "peer"):
                bind(line, in: section)
            case (_, "server"), (_, "server-template"):
                let proxied = ["backend", "listen"].contains(section.kind)
                server(
                    line, notHTTP: !proxied ? "a \(section.kind) section's server" : nil, gateway: isFastCGI ? "fastcgi" : nil, checksOverTLS: checksOverTLS)
            case (_, "source") where words.contains("usesrc"):
                replace(line, with: [], "\(words.joined(separator: " ")): transparent proxying needs TPROXY and privileges the sandbox does not have")
            case (_, "default-server"):
                replace(line, with: [], "default-server: its options (TLS, health checks) dropped with the servers'")
            case ("global", "lua-load"), ("global", "lua-load-per-thread"):
                guard words.count >= 2 else { continue }
                let script = installed(words[1], line.keyword)
                replace(line, with: [words[0], script.path] + words.dropFirst(2), script.reason)
            case (_, "errorfile") where words.count >= 3:
                let page = installed(words[2], "errorfile \(words[1])")
                replace(line, with: [words[0], words[1], page.path], page.reason)
            case (_, "filter") where words.count >= 2 && words[1] == "spoe":
                replace(line, with: [], "\(words.joined(separator: " ")): \(Self.agentsNotRun)")
            case (_, "timeout") where words.count >= 3 && Self.timeouts.contains(words[1]):
                if (Self.milliseconds(words[2]) ?? 0) > Self.timeoutMilliseconds {
                    replace(
                        line, with: ["timeout", words[1], Self.timeout],
                        "timeout \(words[1]) \(words[2]): \(Self.timeout), so a silent server is given up in time")
                }
            case (_, let rule) where Self.ruleKeywords.contains(rule) && words.contains("send-spoe-group"):
                replace(line, with: [], "\(words.joined(separator: " ")): \(Self.agentsNotRun)")
            case (_, "http-request"), (_, "http-response"), (_, "http-after-response"):
                var (changed, reasons) = patternFiles(words)
                if let index = words.firstIndex(where: Self.fileArguments.contains), index + 1 < words.count, words.contains("return") {
                    let page = installed(words[index + 1], "\(words[0]) return \(words[index])")
                    changed[index + 1] = page.path
                    reasons.append(page.reason)
                }
                if !reasons.isEmpty { replace(line, with: changed, reasons.joined(separator: "; ")) }
            case (_, let keyword) where Self.patternKeywords.contains(keyword):
                let (changed, reasons) = patternFiles(words)
                if !reasons.isEmpty { replace(line, with: changed, reasons.joined(separator: "; ")) }
            default:
                continue
            }
        }
    }

    // MARK: Lines

    /// Line `line` from its first word to its end replaced by `words` (nothing: blanked).
    private mutating func replace(_ line: HAProxyLine, with words: [String], _ reason: String) {
        replace(lineAt: line.location, with: words, reason)
    }

    /// The line at `location` (a section's own line, which is no `HAProxyLine`) likewise.
    private mutating func replace(lineAt location: SourceLocation, with words: [String], _ reason: String) {
        guard let range = lines.statement(at: location.line) else { return }
        rewrites.append(.init(file: 0, range: range, text: words.map(Self.quoted).joined(separator: " "), reason: reason, location: location))
    }

    /// A word as HAProxy reads it back: quoted when it holds a blank or a character HAProxy treats.
    private static func quoted(_ word: String) -> String {
        guard word.isEmpty || word.contains(where: { " \t#\\\"'$".contains($0) }) else { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: Addresses

    private mutating func bind(_ line: HAProxyLine, in section: HAProxySection) {
        guard line.words.count >= 2 else { return }
        let written = line.words[line.keyword == "peer" ? 2 : 1].text
        guard line.keyword == "bind" || line.words.count >= 3 else { return }
        var ports: [Int] = []
        for address in written.split(separator: ",") where !ports.contains(context.port(Self.portKey(String(address)))) {
            ports.append(context.port(Self.portKey(String(address))))
        }
        let addresses = ports.map { "127.0.0.1:\($0)" }.joined(separator: ",")
        var words = line.keyword == "peer" ? ["peer", line.words[1].text, addresses] : ["bind", addresses]
        let dropped = line.words.dropFirst(line.keyword == "peer" ? 3 : 2).map(\.text)
        // A TLS listener stays one, with the sandbox's certificate: its other options (the
        // certificates, client certificates, ALPN) are the sandbox's to drop.
        let tls = line.keyword == "bind" && dropped.contains("ssl") ? context.certificate : nil
        if let tls {
            words += ["ssl", "crt", tls.combined]
            tlsPorts.formUnion(ports)
        }
        let gone = tls == nil ? dropped : dropped.filter { $0 != "ssl" }
        let kept = tls == nil ? "plain HTTP" : "TLS kept, with the sandbox's certificate"
        var client = ""
        if line.keyword == "bind", let address = clientAddresses[section.location] {
            words.append("accept-proxy")
            client = "; accept-proxy: the probes come from \(address), which its ACLs let in, as 127.0.0.1 is not"
        }
        replace(
            line, with: words,
            "\(line.keyword) \(written): \(addresses)" + (gone.isEmpty ? "" : " (\(gone.joined(separator: " ")) dropped: \(kept))") + client)
        if line.keyword == "bind" { bindPorts[section.location, default: []] += ports }
    }

    /// A server line to the fake upstream (speaking `gateway`, FastCGI, when its backend uses
    /// a FastCGI application), or, for one that is no web upstream (`notHTTP` says what it is),
    /// to where nothing listens; its options dropped either way.
    private mutating func server(_ line: HAProxyLine, notHTTP: String?, gateway: String? = nil, checksOverTLS: Bool = false) {
        let template = line.keyword == "server-template"
        let addressIndex = template ? 3 : 2
        guard line.words.count > addressIndex else { return }
        let words = line.words.map(\.text)
        var dropped = Array(words.dropFirst(addressIndex + 1))
        // Its `id` kept: two servers of one backend with one name are refused unless one has one.
        var identity: [String] = []
        if let index = dropped.firstIndex(of: "id"), index + 1 < dropped.count {
            identity = Array(dropped[index...(index + 1)])
            dropped.removeSubrange(index...(index + 1))
        }
        let fake = notHTTP != nil ? context.deadUpstream : gateway.map { context.upstream(speaking: $0) } ?? context.upstream
        let fakeName = gateway.map { "the fake upstream (\($0))" } ?? "the fake upstream (plain HTTP)"
        // HAProxy refuses this server's TLS: kept, so its own test says so at this line.
        let refused = tlsRefusedServers.contains(line.location)
        let tls = refused ? ["ssl", "verify", "required"] : checksOverTLS ? ["verify", "none"] : []
        replace(
            line, with: Array(words.prefix(addressIndex)) + [fake] + identity + tls,
            "\(words.prefix(addressIndex + 1).joined(separator: " ")): "
                + (fake == context.deadUpstream ? "nothing listens there" : fakeName)
                + (dropped.isEmpty ? "" : ", \(dropped.joined(separator: " ")) dropped")
                + (refused ? "; TLS with no CA file kept: HAProxy refuses it" : "")
                + (!refused && checksOverTLS ? "; verify none: its proxy's TLS health checks need no CA file in the sandbox" : ""))
        if let notHTTP { notProbed.append((line.location, "\(words[0]) \(words[1]): \(notHTTP), not probed: no web upstream")) }
    }

    /// `:80`, `*:443`, `[::]:8080`, `ipv4@0.0.0.0:80`, `/run/haproxy.sock`: what keys its port.
    static func portKey(_ address: String) -> String {
        guard let colon = address.lastIndex(of: ":") else { return address }
        let port = address[address.index(after: colon)...].prefix { $0.isNumber }
        return port.isEmpty ? address : String(port)
    }

    /// `words` with the pattern files they name (`-f FILE`, `map_dom(FILE,…)`) read as page
    /// files are, and why each changed.
    private func patternFiles(_ words: [String]) -> (words: [String], reasons: [String]) {
        var changed = words
        var reasons: [String] = []
        for index in words.indices.dropFirst() {
            if words[index - 1] == "-f" {
                let file = installed(words[index], "-f")
                changed[index] = file.path
                reasons.append(file.reason)
            } else if words[index].contains("map") {
                // A converter follows a comma.
                changed[index] = words[index].replacing(/(,map(?:_[a-z0-9]+)?\()([^,)]+)/) { match in
                    let file = installed(String(match.output.2), String(match.output.1.dropFirst().dropLast()))
                    reasons.append(file.reason)
                    return match.output.1 + file.path
                }
            }
        }
        return (changed, reasons)
    }

    /// A page file, a Lua script or a pattern file: a relative one from the configuration's
    /// folder (HAProxy reads it from the folder it runs in, which the sandbox is not), an
    /// installed one through `--map`; an installed path that is not mapped is where nothing is,
    /// in the sandbox; a device is kept.
    private func installed(_ written: String, _ what: String) -> (path: String, reason: String) {
        // A device (`errorfile 503 /dev/null`: an empty answer) is the same file here.
        if written.hasPrefix("/dev/") { return (written, "\(what) \(written): the device itself") }
        guard written.hasPrefix("/") else {
            let path = configFolder + "/" + written
            return (path, "\(what) \(written): \(path), from the configuration's folder")
        }
        let path = written
        let mapped = PagePathMap.apply(context.maps, to: path)
        if mapped != path { return (mapped, "\(what) \(path): \(mapped) (--map)") }
        let folder = (path as NSString).deletingLastPathComponent
        return (context.folder + "/unmapped" + path, "\(what) \(path): not mapped, not in the sandbox (--map \(folder)=DIR reads it)")
    }

    /// HAProxy's time (`5000`, `5s`, `1m`, `500ms`) in milliseconds.
    static func milliseconds(_ value: String) -> Int? {
        let digits = value.prefix { $0.isNumber }
        guard let number = Int(digits) else { return nil }
        switch value.dropFirst(digits.count) {
        case "", "ms": return number
        case "us": return number / 1000
        case "s": return number * 1000
        case "m": return number * 60_000
        case "h": return number * 3_600_000
        case "d": return number * 86_400_000
        default: return nil
        }
    }
}
