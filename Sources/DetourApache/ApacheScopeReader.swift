import DetourDiagnostics
import DetourProxyCore

/// Applies the directives of the main server or of one `<VirtualHost>` to its scope, reading
/// from the flat store only the words of the directives the model follows.
struct ApacheScopeReader {
    let config: ApacheConfig
    /// What Apache refuses in the directives read (`ErrorDocument` arguments).
    var diagnostics: [Diagnostic] = []

    /// The `<Location>`, `<Directory>`, `<If>` … a directive is in, with the first argument of
    /// those whose place the model follows.
    struct Section: Sendable, Equatable {
        var name: ApacheName?
        var argument: String?
    }

    /// One directive, its arguments as strings.
    struct Line {
        var name: ApacheName
        var arguments: [String]
        var location: SourceLocation
    }

    /// A `Redirect` status word or number.
    static func isRedirectStatus(_ word: String) -> Bool {
        ["permanent", "temp", "seeother", "gone"].contains(word.lowercased()) || Int(word) != nil
    }

    /// Paths that together stand for every path: a pattern that takes them all takes any.
    static let everyPath = ["/", "/a", "/a/b.html"]

    init(config: ApacheConfig) {
        self.config = config
    }

    /// Applies what the section at `index` holds.
    mutating func applyChildren(of index: Int, to scope: inout ApacheScope.Fields, section: Section?) {
        var child = index + 1
        let end = Int(config.entries[index].end)
        while child < end {
            apply(child, to: &scope, section: section)
            child = Int(config.entries[child].end)
        }
    }

    /// `section`: the section the entry is in, nil at the scope's top.
    mutating func apply(_ index: Int, to scope: inout ApacheScope.Fields, section: Section?) {
        let entry = config.entries[index]
        if entry.isBlock {
            // `<RequireAll>` and its kin group Require lines for the section around them.
            guard entry.name?.isRequireGroup != true else { return applyChildren(of: index, to: &scope, section: section) }
            let placed = entry.name == .location || entry.name == .locationmatch || entry.name == .directory
            let argument = placed && config.argumentCount(entry) > 0 ? config.argument(0, of: entry) : nil
            return applyChildren(of: index, to: &scope, section: Section(name: entry.name, argument: argument))
        }
        guard let name = entry.name, name.isFollowedByModel else { return }
        apply(name, entry, to: &scope, section: section)
    }

    /// One directive the model follows. Its words are read one by one as needed: a list of
    /// them per line would be one more allocation per directive of thousands of sites.
    private mutating func apply(_ name: ApacheName, _ entry: FlatEntry<ApacheName>, to scope: inout ApacheScope.Fields, section: Section?) {
        let count = config.argumentCount(entry)
        func argument(_ index: Int) -> String { config.argument(index, of: entry) }
        var location: SourceLocation { config.location(of: entry) }
        switch name {
        case .errordocument:
            guard count == 2 else {
                diagnostics.append(
                    .error(
                        ApacheRules.syntax.id,
                        "ErrorDocument takes two arguments, a status and a target (quote a text that has blanks): Apache refuses the file", at: location))
                return
            }
            let written = argument(0)
            guard let code = Int(written), (100...599).contains(code) else {
                diagnostics.append(
                    .error(ApacheRules.syntax.id, "ErrorDocument for '\(written)': Apache refuses the file ('Unsupported HTTP response code')", at: location))
                return
            }
            // Apache takes any status; pages are for 4xx and 5xx.
            guard (400...599).contains(code) else { return }
            let document = ApacheErrorDocument(code: code, written: argument(1), location: location, section: section)
            if section == nil { scope.setErrorDocument(document) } else { scope.sectionErrorDocuments.append(document) }
        case .documentroot where section == nil && count >= 1:
            let root = argument(0)
            scope.documentRoot = root.hasSuffix("/") ? String(root.dropLast()) : root
        case .servername where section == nil && count >= 1 && scope.isVirtualHost:
            scope.name = argument(0)
        case .alias where section == nil && count >= 2:
            scope.aliases.append((argument(0), argument(1)))
        case .aliasmatch where section == nil && count >= 2:
            if let pattern = ApacheRegex(argument(0)) { scope.aliasMatches.append((pattern, argument(1))) }
        case .proxypass where section == nil && count >= 2:
            let excluded = config.argument(1, of: entry, is: "!")
            if !excluded { scope.noteTarget(argument(1)) }
            scope.proxyPasses.append((argument(0), excluded, location))
        default:
            apply(Line(name: name, arguments: config.arguments(of: entry), location: location), to: &scope, section: section)
        }
    }

    /// The directives read less often, with their words as a list.
    private mutating func apply(_ line: Line, to scope: inout ApacheScope.Fields, section: Section?) {
        let arguments = line.arguments
        switch line.name {
        case .proxypassmatch, .proxypass:
            if let match = ApacheURLMatch(section), let target = arguments.first {
                if target != "!" { scope.noteTarget(target) }
                scope.sectionProxies.append((match, target == "!", line.location))
            } else if line.name == .proxypassmatch, section == nil, arguments.count >= 2, let pattern = ApacheRegex(arguments[0]) {
                if arguments[1] != "!" { scope.noteTarget(arguments[1]) }
                scope.proxyPassMatches.append((pattern, arguments[1] == "!", line.location))
            }
        case .proxyerroroverride where !arguments.isEmpty:
            scope.errorOverride = arguments[0].lowercased() == "on" ? Set(arguments.dropFirst().compactMap { Int($0) }) : nil
            scope.errorOverrideLocation = line.location
        case .setenv where arguments.count >= 2:
            scope.environment[arguments[0], default: []].append(arguments[1])
        case .setenvif, .setenvifnocase:
            for assignment in arguments.dropFirst(2) {
                let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2, !parts[0].hasPrefix("!") { scope.environment[parts[0], default: []].append(parts[1]) }
            }
        case .sethandler, .addhandler:
            if let handler = arguments.first, handler.lowercased().hasPrefix("proxy:") {
                scope.noteTarget(String(handler.dropFirst("proxy:".count)))
                scope.handlerProxies.append((ApacheURLMatch(section)?.start ?? "/", line.location))
            }
        case .rewriteengine:
            if arguments.first?.lowercased() == "on" { scope.rewriteEngineOn = true }
        case .redirect, .redirectpermanent, .redirecttemp, .redirectmatch:
            // `Redirect[Match] [status] path|regex URL`.
            let hasStatus = line.name != .redirectpermanent && line.name != .redirecttemp && arguments.count >= 2 && Self.isRedirectStatus(arguments[0])
            guard section == nil, let path = arguments.dropFirst(hasStatus ? 1 : 0).first else { return }
            if line.name == .redirectmatch {
                if let regex = ApacheRegex(path), Self.everyPath.allSatisfy(regex.matches) { scope.redirectsEverything = true }
            } else if path == "/" {
                scope.redirectsEverything = true
            }
        case .rewritecond:
            if section == nil { scope.rewriteConditionPending = true }
        case .rewriterule where arguments.count >= 2:
            let rule = ApacheRewriteRule(arguments: arguments, conditioned: section == nil && scope.rewriteConditionPending, location: line.location)
            if section == nil {
                scope.rewriteRules.append(rule)
                scope.rewriteConditionPending = false
            }
            if rule.proxies {
                scope.noteTarget(arguments[1])
                scope.rewriteProxies.append((section == nil ? rule.start : ApacheURLMatch(section)?.start ?? "/", line.location))
            }
        case .require, .authtype:
            guard let section, let guardFound = ApacheGuardRules.guarding(line, in: section) else { return }
            scope.guards.append(guardFound)
        default:
            break
        }
    }
}
