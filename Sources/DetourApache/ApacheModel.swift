import DetourDiagnostics
import DetourSupport
import Foundation

/// The main server and its virtual hosts as Apache merges them: a virtual host takes the main
/// server's ErrorDocuments it does not set, its DocumentRoot if it has none, the main server's
/// Aliases after its own and the main server's ProxyPass rules before its own.
struct ApacheModel: Sendable {
    let server: ApacheScope
    var virtualHosts: [ApacheScope] = []
    /// What Apache refuses in the directives the model reads (`ErrorDocument` arguments).
    var diagnostics: [Diagnostic] = []

    /// Whether a port Apache listens on is one no virtual host names: the main server answers there.
    var mainServerAnswers = false

    /// The scopes visitors reach: the virtual hosts, and the main server where there are none
    /// or on a port none of them takes (`Listen 443` with no `<VirtualHost *:443>`).
    var sites: [ApacheScope] { virtualHosts.isEmpty ? [server] : virtualHosts + (mainServerAnswers ? [server] : []) }

    init(_ config: ApacheConfig) {
        var server = ApacheScope.Fields(name: "server", location: SourceLocation(path: config.files.first ?? ""), isVirtualHost: false)
        var reader = ApacheScopeReader(config: config)
        var hosts: [Int] = []
        var listened: [String] = []
        var index = 0
        while index < config.entries.count {
            let entry = config.entries[index]
            if entry.name == .virtualhost {
                hosts.append(index)
            } else if entry.name == .listen, let address = config.arguments(of: entry).first {
                listened.append(Self.port(address) ?? address)
            } else {
                reader.apply(index, to: &server, section: nil)
            }
            index = Int(entry.end)
        }
        // A virtual host's address without a port, or with `*`, takes every port.
        let taken = hosts.flatMap { config.arguments(of: config.entries[$0]).map { Self.port($0) ?? "*" } }
        mainServerAnswers = !taken.contains("*") && listened.contains { !taken.contains($0) }
        diagnostics = reader.diagnostics
        guard !hosts.isEmpty else {
            server.localDocuments = ApacheLocalDocument.all(in: server)
            self.server = ApacheScope(server)
            return
        }
        self.server = ApacheScope(server)
        let main = server
        // Virtual hosts share nothing but the main server: each is read on its own, on every core.
        let built = hosts.concurrentMap { start -> (ApacheScope, [Diagnostic]) in
            let entry = config.entries[start]
            var scope = ApacheScope.Fields(name: "", location: config.location(of: entry), isVirtualHost: true)
            var reader = ApacheScopeReader(config: config)
            reader.applyChildren(of: start, to: &scope, section: nil)
            if scope.name.isEmpty { scope.name = config.arguments(of: entry).joined(separator: " ") }
            Self.inherit(&scope, from: main)
            scope.localDocuments = ApacheLocalDocument.all(in: scope)
            return (ApacheScope(scope), reader.diagnostics)
        }
        virtualHosts = built.map(\.0)
        diagnostics += built.flatMap(\.1)
    }

    /// The port of `Listen 8080`, `Listen 0.0.0.0:80`, `[::]:443`, `*:80`; nil where none is written.
    static func port(_ address: String) -> String? {
        if address.allSatisfy(\.isNumber) { return address }
        guard let colon = address.lastIndex(of: ":"), !address.hasSuffix("]") else { return nil }
        // `[2001:db8::1]` alone has colons but no port.
        if address.hasPrefix("["), !address[..<colon].hasSuffix("]") { return nil }
        return String(address[address.index(after: colon)...])
    }

    /// What a virtual host takes from the main server, merged in place.
    private static func inherit(_ scope: inout ApacheScope.Fields, from server: ApacheScope.Fields) {
        if !server.errorDocuments.isEmpty {
            let own = scope.errorDocuments
            scope.errorDocuments = server.errorDocuments
            for document in own { scope.setErrorDocument(document) }
        }
        if scope.documentRoot == nil { scope.documentRoot = server.documentRoot }
        scope.aliases += server.aliases
        scope.aliasMatches += server.aliasMatches
        if !server.proxyPassMatches.isEmpty { scope.proxyPassMatches = server.proxyPassMatches + scope.proxyPassMatches }
        if !server.proxyPasses.isEmpty { scope.proxyPasses = server.proxyPasses + scope.proxyPasses }
        scope.handlerProxies = server.handlerProxies + scope.handlerProxies
        // Its <Location> sections come before the virtual host's, and the last that takes a path wins.
        if !server.sectionProxies.isEmpty { scope.sectionProxies = server.sectionProxies + scope.sectionProxies }
        // The main server's FastCGI or AJP upstream comes with the proxies it passes on (its
        // rewrites stay its own).
        if server.upstreamTimesOutAs504
            && !(server.proxyPasses.isEmpty && server.proxyPassMatches.isEmpty && server.sectionProxies.isEmpty && server.handlerProxies.isEmpty)
        {
            scope.upstreamTimesOutAs504 = true
        }
        if scope.errorOverrideLocation == nil { (scope.errorOverride, scope.errorOverrideLocation) = (server.errorOverride, server.errorOverrideLocation) }
        if !server.guards.isEmpty { scope.guards = server.guards + scope.guards }
        if !server.environment.isEmpty { scope.environment = server.environment.merging(scope.environment) { $0 + $1 } }
        if !server.sectionErrorDocuments.isEmpty { scope.sectionErrorDocuments = server.sectionErrorDocuments + scope.sectionErrorDocuments }
    }
}
