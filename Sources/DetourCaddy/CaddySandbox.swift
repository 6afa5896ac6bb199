import DetourDiagnostics
import DetourProxyCore
import Foundation

/// `detour verify caddy`: what running a Caddyfile on 127.0.0.1 needs, in two steps.
/// `plan` reads the Caddyfile as `detour check` does and copies every file it read (an
/// absolute `import` names its copy); its sites are each block's addresses on the ports Caddy
/// gives them, with the paths its `handle`, `handle_path`, `route` and `reverse_proxy` lines
/// match. Caddy itself then adapts the copy to JSON, and `CaddySandboxJSON` rewrites that:
/// listen addresses, upstreams, TLS, admin, storage and log files.
public enum CaddySandbox {
    public static func plan(main: URL, mainDisplay: String, context: SandboxContext) -> SandboxPlan {
        let config = CaddyConfig.load(main: main, displayPath: mainDisplay)
        var plan = SandboxPlan()
        plan.files = zip(config.paths, config.files.all).map { SandboxPlan.File(path: $0.0, displayPath: $0.1) }
        // Without the main file there is nothing to run; anything else wrong is Caddy's to say.
        guard !plan.files.isEmpty else {
            plan.blockingFindings = config.diagnostics
            return plan
        }
        for (index, file) in plan.files.enumerated() { plan.rewrites += Self.absoluteImports(in: file, index: index, context: context) }
        guard config.diagnostics.isEmpty else { return plan }
        // Caddy logs to its standard error, which the sandbox keeps.
        plan.errorLogs = ["server.out"]
        let ports = Self.defaultPorts(config)
        for block in config.sites where !block.hasStrayBrace {
            Self.addSites(of: block, config: config, ports: ports, context: context, to: &plan)
        }
        return plan
    }

    // MARK: Imports

    /// `import /etc/caddy/sites/*`: the copy's path, so Caddy reads the sandbox. A relative
    /// import already starts at the copy's folder.
    static func absoluteImports(in file: SandboxPlan.File, index: Int, context: SandboxContext) -> [SandboxPlan.Rewrite] {
        guard let data = FileManager.default.contents(atPath: file.path) else { return [] }
        let bytes = [UInt8](data)
        var rewrites: [SandboxPlan.Rewrite] = []
        var lineStart = 0
        var line = 1
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let words = Self.words(bytes, lineStart..<lineEnd)
            if words.count >= 2, words[0].text == "import", words[1].text.hasPrefix("/") {
                let path = words[1].text
                rewrites.append(
                    .init(
                        file: index, range: words[1].range, text: context.copy(of: path), reason: "import \(path): its copy in the sandbox",
                        location: SourceLocation(path: file.displayPath, line: line, column: words[1].range.lowerBound - lineStart + 1)))
            }
            lineStart = lineEnd + 1
            line += 1
        }
        return rewrites
    }

    /// The unquoted words of one line, up to a comment.
    private static func words(_ bytes: [UInt8], _ range: Range<Int>) -> [(text: String, range: Range<Int>)] {
        var words: [(String, Range<Int>)] = []
        var at = range.lowerBound
        while at < range.upperBound {
            while at < range.upperBound, bytes[at] == UInt8(ascii: " ") || bytes[at] == UInt8(ascii: "\t") || bytes[at] == UInt8(ascii: "\r") { at += 1 }
            guard at < range.upperBound, bytes[at] != UInt8(ascii: "#") else { break }
            let start = at
            while at < range.upperBound, bytes[at] != UInt8(ascii: " "), bytes[at] != UInt8(ascii: "\t"), bytes[at] != UInt8(ascii: "\r") { at += 1 }
            words.append((String(decoding: bytes[start..<at], as: UTF8.self), start..<at))
        }
        return words
    }

    // MARK: Sites

    /// The ports a site address without one gets: `http_port` and `https_port` (80 and 443).
    static func defaultPorts(_ config: CaddyConfig) -> (http: String, https: String) {
        var ports = (http: "80", https: "443")
        guard let global = config.blocks.first, global.isGlobalOptions else { return ports }
        for segment in global.segments where segment.count >= 2 {
            if segment[0].text == "http_port" { ports.http = segment[1].text }
            if segment[0].text == "https_port" { ports.https = segment[1].text }
        }
        return ports
    }

    /// A site address as visitors reach it: the Host they send, the port (as written, or the
    /// scheme's), and the path it is limited to.
    static func address(_ written: String, ports: (http: String, https: String)) -> (host: String, port: String, path: String)? {
        var rest = Substring(written)
        var scheme = ""
        if let separator = rest.range(of: "://") {
            scheme = String(rest[..<separator.lowerBound])
            rest = rest[separator.upperBound...]
        }
        guard scheme.isEmpty || scheme == "http" || scheme == "https" else { return nil }
        let path = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
        var authority = rest.prefix { $0 != "/" }
        var port = ""
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            port = String(authority[authority.index(after: colon)...])
            authority = authority[..<colon]
        }
        if port.isEmpty { port = scheme == "http" ? ports.http : ports.https }
        guard Int(port) != nil else { return nil }
        var host = String(authority).replacingOccurrences(of: "*", with: "detour-probe")
        if host.isEmpty || host.contains("{") { host = "127.0.0.1" }
        return (host, port, path)
    }

    /// One site per port of the block's addresses (the first address on it names the Host).
    private static func addSites(
        of block: CaddySiteBlock, config: CaddyConfig, ports: (http: String, https: String), context: SandboxContext, to plan: inout SandboxPlan
    ) {
        let location = block.start.map { $0.placeOfUse(in: config.files) } ?? SourceLocation(path: config.files[0])
        var routes = CaddySandboxRoutes(config: config, site: location)
        routes.collect(block.segments.map { CaddyLine($0) })
        plan.notProbed += routes.notProbed
        var seen: Set<Int> = []
        let firstSite = plan.sites.count
        for key in block.keys {
            guard let address = Self.address(key.text, ports: ports) else { continue }
            let port = context.port(address.port)
            guard seen.insert(port).inserted else { continue }
            var siteRoutes = routes.routes
            if !address.path.isEmpty {
                let base = CaddySandboxRoutes.concrete(address.path)
                siteRoutes = siteRoutes.filter { $0.path.hasPrefix(base) }
                if siteRoutes.isEmpty { siteRoutes = [.init(path: base, location: location)] }
            }
            var site = SandboxPlan.Site(host: address.host, port: port, location: location, routes: siteRoutes)
            site.passThroughLocation = routes.firstPassingProxy
            plan.sites.append(site)
        }
        plan.logSignatures += Self.errorHandlerSignatures(of: routes, sites: firstSite..<plan.sites.count, in: plan.sites)
        plan.notProbed += routes.errorPagesWithoutRoot.map {
            ($0, "handle_errors' file_server has no root: it reads the folder Caddy is started in, which the sandbox does not know")
        }
    }

    /// What Caddy logs when a `handle_errors` fails, by host of the block's sites (`sites`):
    /// a page its file_server does not find is missing, not a code left uncovered (without a
    /// root, the folder is Caddy's working one, which the sandbox does not know: the site has
    /// pages, set up somewhere); a page fetched from the upstream that has just failed fails
    /// with it, and the site has no page of its own (as `detour check` has it, nothing for the
    /// upstream's errors to pass in place of); a `basicauth` on the page's way refuses it.
    /// Each time Caddy answers the status, no body.
    private static func errorHandlerSignatures(of routes: CaddySandboxRoutes, sites: Range<Int>, in all: [SandboxPlan.Site]) -> [SandboxPlan.LogSignature] {
        let notFound = ["error handling handler error", "fileserver.(*FileServer).notFound"]
        let missing = "the error page is not there: handle_errors' file_server found no file for the error, and Caddy answered with the status and no body"
        let proxied =
            "the error page is the upstream's: handle_errors fetches it from the upstream that failed, which failed it too (Caddy answered with the status and no body)"
        let guarded = "the error pages are behind basicauth: Caddy swallowed its refusal inside handle_errors and answered with the status and no body"
        let refused = ["error handling handler error", "caddyauth.Authentication"]
        let kinds: [(lines: [SourceLocation], parts: [String], rule: String?, message: String, fromUpstream: Bool)] = [
            (routes.errorPageGuards.filter { !$0.fromUpstream }.map(\.location), refused, CaddyRules.protected.id, guarded, false),
            (routes.errorPageGuards.filter(\.fromUpstream).map(\.location), refused, CaddyRules.protected.id, guarded, true),
            (routes.errorPageLines, notFound, CaddyRules.missingFile.id, missing, false),
            (routes.errorPagesWithoutRoot, notFound, nil, "", false),
            (routes.errorPagesFromTheSiteUpstream, ["error handling handler error", "reverseproxy.statusError"], CaddyRules.proxied.id, proxied, true),
        ]
        var signatures: [SandboxPlan.LogSignature] = []
        for kind in kinds {
            for line in kind.lines {
                for host in Set(sites.map { all[$0].host }).sorted() {
                    var signature = SandboxPlan.LogSignature(parts: kind.parts + ["\"host\":\"\(host)"], rule: kind.rule, message: kind.message, location: line)
                    let hosted = Set(sites.filter { all[$0].host == host })
                    if kind.fromUpstream { signature.upstreamPagesOf = hosted } else { signature.brokenPagesOf = hosted }
                    signatures.append(signature)
                }
            }
        }
        return signatures
    }
}
