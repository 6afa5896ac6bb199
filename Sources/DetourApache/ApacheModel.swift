import DetourDiagnostics
import Foundation

/// The main server and its virtual hosts as Apache merges them: a virtual host takes the main
/// server's ErrorDocuments it does not set, its DocumentRoot if it has none, the main server's
/// Aliases after its own and the main server's ProxyPass rules before its own.
struct ApacheModel: Sendable {
    var server = ApacheScope(name: "server", location: SourceLocation(path: ""), isVirtualHost: false)
    var virtualHosts: [ApacheScope] = []
    /// What Apache refuses in the directives the model reads (`ErrorDocument` arguments).
    var diagnostics: [Diagnostic] = []

    /// The scopes visitors reach: the virtual hosts, or the main server when there are none.
    var sites: [ApacheScope] { virtualHosts.isEmpty ? [server] : virtualHosts }

    /// An ErrorDocument for a local path in one site, with the paths it names (one per value of
    /// its `%{ENV:…}` parts): what several rules follow, worked out once.
    struct LocalDocument: Sendable {
        var site: Int
        var document: ApacheErrorDocument
        var paths: [String]
    }
    private(set) var localDocuments: [LocalDocument] = []
    /// Every ErrorDocument of every site, in code order, then those of its sections.
    private(set) var documents: [ApacheErrorDocument] = []

    init(_ config: ApacheConfig) {
        var server = ApacheScope(name: "server", location: SourceLocation(path: config.files.first ?? ""), isVirtualHost: false)
        var hosts: [ApacheDirective] = []
        for directive in config.directives {
            if directive.name == "virtualhost" { hosts.append(directive) } else { Self.apply(directive, to: &server, section: nil, diagnostics: &diagnostics) }
        }
        self.server = server
        let main = server
        // Virtual hosts share nothing but the main server: each is read on its own, on every core.
        let built = hosts.concurrentMap { host -> (ApacheScope, [Diagnostic]) in
            var scope = ApacheScope(name: "", location: host.location, isVirtualHost: true)
            var found: [Diagnostic] = []
            for child in host.children ?? [] { Self.apply(child, to: &scope, section: nil, diagnostics: &found) }
            scope.name = scope.name.isEmpty ? host.arguments.joined(separator: " ") : scope.name
            return (Self.merged(scope, into: main), found)
        }
        virtualHosts = built.map(\.0)
        diagnostics += built.flatMap(\.1)
        for (index, scope) in sites.enumerated() {
            let own = scope.errorDocuments.values.sorted { $0.code < $1.code } + scope.sectionErrorDocuments
            documents += own
            localDocuments += own.compactMap { document in
                guard case .path(let path) = document.target, let paths = ApacheCheckContext.paths(of: path, in: scope) else { return nil }
                return LocalDocument(site: index, document: document, paths: paths)
            }
        }
    }

    private static func merged(_ host: ApacheScope, into server: ApacheScope) -> ApacheScope {
        var scope = host
        scope.errorDocuments = server.errorDocuments.merging(host.errorDocuments) { _, own in own }
        scope.documentRoot = host.documentRoot ?? server.documentRoot
        scope.aliases = host.aliases + server.aliases
        scope.aliasMatches = host.aliasMatches + server.aliasMatches
        scope.proxyPassMatches = server.proxyPassMatches + host.proxyPassMatches
        scope.proxyPasses = server.proxyPasses + host.proxyPasses
        if host.errorOverrideLocation == nil { (scope.errorOverride, scope.errorOverrideLocation) = (server.errorOverride, server.errorOverrideLocation) }
        scope.guards = server.guards + host.guards
        scope.environment = server.environment.merging(host.environment) { $0 + $1 }
        scope.sectionErrorDocuments = server.sectionErrorDocuments + host.sectionErrorDocuments
        return scope
    }

    /// `section`: the `<Location>`/`<Directory>`/… the directive is in, nil at the scope's top.
    private static func apply(_ directive: ApacheDirective, to scope: inout ApacheScope, section: ApacheDirective?, diagnostics: inout [Diagnostic]) {
        let arguments = directive.arguments
        switch directive.name {
        case "errordocument":
            guard arguments.count == 2 else {
                diagnostics.append(.error("apache.syntax", "ErrorDocument takes two arguments, a status and a target (quote a text that has blanks): Apache refuses the file", at: directive.location))
                return
            }
            guard let code = Int(arguments[0]), (100...599).contains(code) else {
                diagnostics.append(.error("apache.syntax", "ErrorDocument for '\(arguments[0])': Apache refuses the file ('Unsupported HTTP response code')", at: directive.location))
                return
            }
            // Apache takes any status; pages are for 4xx and 5xx.
            guard (400...599).contains(code), let document = ApacheErrorDocument(directive) else { return }
            if section == nil { scope.errorDocuments[document.code] = document } else { scope.sectionErrorDocuments.append(document) }
        case "documentroot" where section == nil && !arguments.isEmpty:
            scope.documentRoot = arguments[0].hasSuffix("/") ? String(arguments[0].dropLast()) : arguments[0]
        case "servername" where section == nil && !arguments.isEmpty && scope.isVirtualHost:
            scope.name = arguments[0]
        case "alias" where section == nil && arguments.count >= 2:
            scope.aliases.append((arguments[0], arguments[1]))
        case "aliasmatch" where section == nil && arguments.count >= 2:
            if let pattern = ApacheRegex(arguments[0]) { scope.aliasMatches.append((pattern, arguments[1])) }
        case "proxypassmatch":
            if let section, section.name == "locationmatch", let regex = section.arguments.first, let target = arguments.first, let pattern = ApacheRegex(regex) {
                scope.proxyPassMatches.append((pattern, target == "!", directive.location))
            } else if section == nil, arguments.count >= 2, let pattern = ApacheRegex(arguments[0]) {
                scope.proxyPassMatches.append((pattern, arguments[1] == "!", directive.location))
            }
        case "proxypass":
            if let section, section.name == "locationmatch", let regex = section.arguments.first, let target = arguments.first, let pattern = ApacheRegex(regex) {
                scope.proxyPassMatches.append((pattern, target == "!", directive.location))
            } else if let section, section.name == "location", let path = section.arguments.first, let target = arguments.first {
                scope.proxyPasses.append((path, target == "!", directive.location))
            } else if section == nil, arguments.count >= 2 {
                scope.proxyPasses.append((arguments[0], arguments[1] == "!", directive.location))
            }
        case "proxyerroroverride" where !arguments.isEmpty:
            scope.errorOverride = arguments[0].lowercased() == "on" ? Set(arguments.dropFirst().compactMap { Int($0) }) : nil
            scope.errorOverrideLocation = directive.location
        case "setenv" where arguments.count >= 2:
            scope.environment[arguments[0], default: []].append(arguments[1])
        case "setenvif", "setenvifnocase":
            for assignment in arguments.dropFirst(2) {
                let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2, !parts[0].hasPrefix("!") { scope.environment[parts[0], default: []].append(parts[1]) }
            }
        case "require", "authtype":
            guard let section, let guardFound = ApacheGuardRules.guarding(directive, in: section) else { return }
            scope.guards.append(guardFound)
        default:
            guard let children = directive.children else { return }
            for child in children { apply(child, to: &scope, section: directive.name.hasPrefix("require") ? section : directive, diagnostics: &diagnostics) }
        }
    }
}

/// What a `Require` (or `AuthType`) line says of its section: it keeps visitors out, unless it
/// is `all granted`, a negation, or the `expr` on `REDIRECT_STATUS` that lets error documents
/// through (as detour's snippet does). Apache applies the most specific `<Directory>` and the
/// last `<Location>` that match, so lines that let visitors in are kept too.
enum ApacheGuardRules {
    static func guarding(_ directive: ApacheDirective, in section: ApacheDirective) -> ApacheGuard? {
        let arguments = directive.arguments.map { $0.lowercased() }
        var denies = true
        if directive.name == "require" {
            if arguments.first == "all", arguments.dropFirst().first == "granted" { denies = false }
            if arguments.first == "expr", directive.arguments.joined(separator: " ").contains("REDIRECT_STATUS") { denies = false }
            if arguments.first == "not" { denies = false }
        } else if arguments.first == "none" {
            denies = false
        }
        let what = ([directive.name == "require" ? "Require" : "AuthType"] + directive.arguments).joined(separator: " ")
        guard let place = section.arguments.first else { return nil }
        switch section.name {
        case "location": return ApacheGuard(subject: .url(place), location: directive.location, what: what, denies: denies)
        case "directory": return ApacheGuard(subject: .folder(place.hasSuffix("/") && place.count > 1 ? String(place.dropLast()) : place), location: directive.location, what: what, denies: denies)
        default: return nil
        }
    }
}
