import DetourDiagnostics

/// What the main server or one `<VirtualHost>` does with errors and requests, with what a
/// virtual host takes from the main server.
struct ApacheScope: Sendable {
    /// `server` or the virtual host's ServerName (else its address).
    var name: String
    var location: SourceLocation
    var isVirtualHost: Bool
    var errorDocuments: [Int: ApacheErrorDocument] = [:]
    /// ErrorDocuments inside `<Location>`, `<Directory>`, `<Files>`, `<If>`: for part of the site only.
    var sectionErrorDocuments: [ApacheErrorDocument] = []
    var documentRoot: String?
    /// `Alias URL-path file-path`, in the order Apache tries them (the virtual host's first).
    var aliases: [(url: String, path: String)] = []
    /// `AliasMatch regex file-path`, tried after the Aliases.
    var aliasMatches: [(pattern: ApacheRegex, path: String)] = []
    /// `ProxyPass path target|!`, in the order Apache tries them (the main server's first),
    /// `<Location p> ProxyPass target` as `p`; `ProxyPassMatch` with its regex.
    var proxyPasses: [(path: String, excluded: Bool, location: SourceLocation)] = []
    var proxyPassMatches: [(pattern: ApacheRegex, excluded: Bool, location: SourceLocation)] = []
    /// `ProxyErrorOverride On [codes]`: nil when off; empty when every error status.
    var errorOverride: Set<Int>?
    /// Where ProxyErrorOverride is written here (On or Off), nil when it is taken from the main server.
    var errorOverrideLocation: SourceLocation?
    /// `Require` and authentication, by the URL path (`<Location>`) or folder (`<Directory>`) they guard.
    var guards: [ApacheGuard] = []
    /// Values `SetEnv`/`SetEnvIf` give each variable, for `%{ENV:NAME}` in a target.
    var environment: [String: [String]] = [:]

    /// The first ProxyPass that takes `path`, nil when none or an exclusion does; then the
    /// first ProxyPassMatch.
    func proxy(of path: String) -> SourceLocation? {
        for pass in proxyPasses where Self.prefix(pass.path, covers: path) {
            return pass.excluded ? nil : pass.location
        }
        for pass in proxyPassMatches where pass.pattern.matches(path) {
            return pass.excluded ? nil : pass.location
        }
        return nil
    }

    /// The file a local URL path is served from: an Alias, else the DocumentRoot.
    func file(of path: String) -> String? {
        for alias in aliases where Self.prefix(alias.url, covers: path) {
            let rest = path.dropFirst(alias.url.count)
            return alias.path + (alias.url.hasSuffix("/") && !alias.path.hasSuffix("/") ? "/" : "") + rest
        }
        for alias in aliasMatches {
            if let file = alias.pattern.substitute(path, into: alias.path) { return file }
        }
        return documentRoot.map { $0 + path }
    }

    /// The line that keeps visitors from a page at `url` served from `file`: the last
    /// `<Location>` that matches, else the most specific `<Directory>`; nil when they get in.
    func guardOf(url: String, file: String?) -> ApacheGuard? {
        if let last = guards.last(where: { if case .url(let prefix) = $0.subject { Self.prefix(prefix, covers: url) } else { false } }) {
            return last.denies ? last : nil
        }
        guard let file else { return nil }
        let folders = guards.filter { if case .folder(let folder) = $0.subject { folder == "/" || Self.prefix(folder + "/", covers: file) } else { false } }
        let deepest = folders.max { first, second in
            guard case .folder(let a) = first.subject, case .folder(let b) = second.subject else { return false }
            return a.count < b.count
        }
        return deepest?.denies == true ? deepest : nil
    }

    static func prefix(_ prefix: String, covers path: String) -> Bool {
        guard path.hasPrefix(prefix) else { return false }
        return prefix.hasSuffix("/") || path.count == prefix.count || path.dropFirst(prefix.count).first == "/"
    }
}

/// A `<Location>` or `<Directory>` whose `Require`/auth keeps some visitors out.
struct ApacheGuard: Sendable {
    enum Subject: Sendable { case url(String), folder(String) }
    var subject: Subject
    /// The `Require` line (or `AuthType`) that keeps them out.
    var location: SourceLocation
    var what: String
    /// False for a line that lets visitors in (`Require all granted`).
    var denies: Bool
}
