import DetourDiagnostics

/// What the main server or one `<VirtualHost>` does with errors and requests, with what a
/// virtual host takes from the main server.
///
/// A class: every rule walks every site, and a reference costs one count to pass where a
/// value would cost one per list. The reader fills in `Fields`, a value, one scope on one
/// thread; the scope is made once they are complete and is never changed after, so it is
/// shared between threads as it is. Its fields read as its own (`scope.aliases`).
@dynamicMemberLookup
final class ApacheScope: Sendable {
    let fields: Fields

    init(_ fields: Fields) {
        self.fields = fields
    }

    subscript<Value>(dynamicMember path: KeyPath<Fields, Value>) -> Value { fields[keyPath: path] }

    func errorDocument(for code: Int, at start: String) -> ApacheErrorDocument? { fields.errorDocument(for: code, at: start) }
    func raisesItself(_ code: Int) -> Bool { fields.raisesItself(code) }

    /// Whether Apache answers a silent upstream at `target` (`fcgi://…`, `unix:…|fcgi://…`,
    /// `ajp://…`) with 504 rather than 502: mod_proxy_fcgi and mod_proxy_ajp do.
    static func timesOutAs504(_ target: String) -> Bool {
        let scheme = target.lowercased().split(separator: "|").last?.prefix { $0 != ":" } ?? ""
        return scheme == "fcgi" || scheme == "ajp"
    }
    func proxy(of path: String) -> ApacheProxyLine? { fields.proxy(of: path) }
    func file(of path: String) -> String? { fields.file(of: path) }
    func guardOf(url: String, file: String?) -> ApacheGuard? { fields.guardOf(url: url, file: file) }

    struct Fields: Sendable {
        /// `server` or the virtual host's ServerName (else its address).
        var name: String
        var location: SourceLocation
        var isVirtualHost: Bool
        /// By code, one per code: a later one replaces an earlier (`setErrorDocument`).
        var errorDocuments: [ApacheErrorDocument] = []
        /// ErrorDocuments inside `<Location>`, `<Directory>`, `<Files>`, `<If>`: for part of the site only.
        var sectionErrorDocuments: [ApacheErrorDocument] = []
        var documentRoot: String?
        /// `Alias URL-path file-path`, in the order Apache tries them (the virtual host's first).
        var aliases: [(url: String, path: String)] = []
        /// `AliasMatch regex file-path`, tried after the Aliases.
        var aliasMatches: [(pattern: ApacheRegex, path: String)] = []
        /// `ProxyPass path target|!` and `ProxyPassMatch`, in the order Apache tries them (the
        /// main server's first), with their regex.
        var proxyPasses: [(path: String, excluded: Bool, location: SourceLocation)] = []
        var proxyPassMatches: [(pattern: ApacheRegex, excluded: Bool, location: SourceLocation)] = []
        /// `<Location p> ProxyPass target|!` (and `<LocationMatch>`): Apache tries the last
        /// section's that takes a path before every ProxyPass line, and its `!` ends the search.
        var sectionProxies: [(match: ApacheURLMatch, excluded: Bool, location: SourceLocation)] = []
        /// The other lines that hand some requests to an upstream, with a path each request
        /// starts with: `SetHandler`/`AddHandler "proxy:…"` (per-directory, so a virtual host
        /// takes the main server's) and a `RewriteRule … [P]` under `RewriteEngine On` (its own
        /// only, as Apache merges them).
        var handlerProxies: [(start: String, location: SourceLocation)] = []
        var rewriteProxies: [(start: String, location: SourceLocation)] = []
        /// The RewriteRules at the site's top, in order, for the paths they proxy.
        var rewriteRules: [ApacheRewriteRule] = []
        /// Whether a `RewriteCond` was read since the last RewriteRule: it conditions the next one.
        var rewriteConditionPending = false
        /// Whether one of its upstreams speaks a protocol whose module answers 504 itself when
        /// the upstream is slow (FastCGI, AJP); mod_proxy_http answers 502 for that.
        var upstreamTimesOutAs504 = false
        /// Whether `RewriteEngine On` is written in this scope or one of its sections.
        var rewriteEngineOn = false
        /// A `Redirect` of `/` or a `RedirectMatch` that takes every path, at the site's top:
        /// every request is answered with the redirect, and nothing can fail.
        var redirectsEverything = false
        /// `ProxyErrorOverride On [codes]`: nil when off; empty when every error status.
        var errorOverride: Set<Int>?
        /// Where ProxyErrorOverride is written here (On or Off), nil when it is taken from the main server.
        var errorOverrideLocation: SourceLocation?
        /// `Require` and authentication, by the URL path (`<Location>`) or folder (`<Directory>`) they guard.
        var guards: [ApacheGuard] = []
        /// Values `SetEnv`/`SetEnvIf` give each variable, for `%{ENV:NAME}` in a target.
        var environment: [String: [String]] = [:]
        /// Its ErrorDocuments for local paths, followed once the site is read.
        var localDocuments: [ApacheLocalDocument] = []

        init(name: String, location: SourceLocation, isVirtualHost: Bool) {
            self.name = name
            self.location = location
            self.isVirtualHost = isVirtualHost
        }

        /// Sets the page for the document's code, replacing the one set before. A short list:
        /// a site sets a few codes, and thousands of sites are read.
        mutating func setErrorDocument(_ document: ApacheErrorDocument) {
            let index = errorDocuments.firstIndex { $0.code >= document.code } ?? errorDocuments.count
            if index < errorDocuments.count, errorDocuments[index].code == document.code {
                errorDocuments[index] = document
            } else {
                errorDocuments.insert(document, at: index)
            }
        }

        /// The page requests under `start` get for `code`, as Apache merges them: an `<If>`'s
        /// over the last `<Location>` that takes them all, over the site's own.
        func errorDocument(for code: Int, at start: String) -> ApacheErrorDocument? {
            if let conditional = sectionErrorDocuments.last(where: { $0.code == code && $0.isConditional }) { return conditional }
            let located = sectionErrorDocuments.last { document in
                document.code == code && ApacheURLMatch(document.section).map { $0.takes(start) } == true
            }
            return located ?? errorDocuments.first { $0.code == code }
        }

        /// Where requests meet the upstream: a path each request of each proxying line starts
        /// with. Empty for a site that serves everything itself.
        var proxiedStarts: [String] {
            var starts = proxyPasses.filter { !$0.excluded }.map(\.path) + proxyPassMatches.filter { !$0.excluded }.map(\.pattern.literalStart)
            starts += sectionProxies.filter { !$0.excluded }.map(\.match.start) + handlerProxies.map(\.start)
            if rewriteEngineOn { starts += rewriteProxies.map(\.start) }
            return starts
        }

        /// Records what a proxy target (`fcgi://…`, `unix:…|fcgi://…`, `http://…`) tells of
        /// the statuses Apache raises for it.
        mutating func noteTarget(_ target: String) {
            if ApacheScope.timesOutAs504(target) { upstreamTimesOutAs504 = true }
        }

        /// The 5xx statuses visitors can get from Apache's own error handling: what mod_proxy
        /// raises (500, 502, 503; 504 for a FastCGI or AJP upstream) and, under
        /// `ProxyErrorOverride On`, the upstream's own error statuses it lists (every one when
        /// none is listed). None for a site that does not proxy.
        func raisesItself(_ code: Int) -> Bool {
            guard firstProxy != nil else { return false }
            if code == 500 || code == 502 || code == 503 || (code == 504 && upstreamTimesOutAs504) { return true }
            guard let errorOverride else { return false }
            return errorOverride.isEmpty || errorOverride.contains(code)
        }

        /// The first line that sends requests to an upstream: a ProxyPass, a ProxyPassMatch, a
        /// proxy handler or a `[P]` rewrite; nil when the site serves everything itself.
        var firstProxy: SourceLocation? {
            proxyPasses.first { !$0.excluded }?.location ?? proxyPassMatches.first { !$0.excluded }?.location
                ?? sectionProxies.first { !$0.excluded }?.location ?? handlerProxies.first?.location
                ?? (rewriteEngineOn ? rewriteProxies.first?.location : nil)
        }

        /// The line that sends `path` to the upstream, as Apache tries them: the last
        /// `<Location>`'s ProxyPass that takes it, else the first ProxyPass, then ProxyPassMatch;
        /// a `!` there keeps it from mod_proxy, not from a `[P]` RewriteRule, which runs next.
        func proxy(of path: String) -> ApacheProxyLine? {
            if let section = sectionProxies.last(where: { $0.match.takes(path) }) {
                if !section.excluded { return ApacheProxyLine(kind: .section, location: section.location) }
            } else if let pass = proxyPasses.first(where: { ApacheScope.prefix($0.path, covers: path) }) {
                if !pass.excluded { return ApacheProxyLine(kind: .proxyPass, location: pass.location) }
            } else if let pass = proxyPassMatches.first(where: { $0.pattern.matches(path) }) {
                if !pass.excluded { return ApacheProxyLine(kind: .proxyPass, location: pass.location) }
            }
            guard rewriteEngineOn, let rule = ApacheRewriteRule.proxy(of: path, by: rewriteRules) else { return nil }
            return ApacheProxyLine(kind: .rewrite, location: rule)
        }

        /// The file a local URL path is served from: an Alias, else the DocumentRoot.
        func file(of path: String) -> String? {
            for alias in aliases where ApacheScope.prefix(alias.url, covers: path) {
                var file = alias.path
                if alias.url.utf8.last == UInt8(ascii: "/"), file.utf8.last != UInt8(ascii: "/") { file += "/" }
                file += Substring(path.utf8.dropFirst(alias.url.utf8.count))
                return file
            }
            for alias in aliasMatches {
                if let file = alias.pattern.substitute(path, into: alias.path) { return file }
            }
            return documentRoot.map { $0 + path }
        }

        /// The line that keeps visitors from a page at `url` served from `file`: the last
        /// `<Location>` that matches, else the most specific `<Directory>`; nil when they get in.
        func guardOf(url: String, file: String?) -> ApacheGuard? {
            if let last = guards.last(where: { if case .url(let prefix) = $0.subject { ApacheScope.prefix(prefix, covers: url) } else { false } }) {
                return last.denies ? last : nil
            }
            guard let file else { return nil }
            let folders = guards.filter {
                if case .folder(let folder) = $0.subject { folder == "/" || ApacheScope.prefix(folder + "/", covers: file) } else { false }
            }
            let deepest = folders.max { first, second in
                guard case .folder(let a) = first.subject, case .folder(let b) = second.subject else { return false }
                return a.count < b.count
            }
            return deepest?.denies == true ? deepest : nil
        }
    }

    /// Whether a `ProxyPass`/`Alias`/`<Location>` path takes `path`: at a `/` boundary unless
    /// it ends with one. Bytes: thousands of sites each ask for every page.
    static func prefix(_ prefix: String, covers path: String) -> Bool {
        let answer = prefix.utf8.withContiguousStorageIfAvailable { head in
            path.utf8.withContiguousStorageIfAvailable { whole in covers(head, whole) }
        }
        return (answer ?? nil) ?? covers(Array(prefix.utf8), Array(path.utf8))
    }

    private static func covers<Bytes: RandomAccessCollection<UInt8>>(_ head: Bytes, _ whole: Bytes) -> Bool where Bytes.Index == Int {
        guard whole.count >= head.count, zip(head, whole).allSatisfy({ $0 == $1 }) else { return false }
        return head.last == UInt8(ascii: "/") || whole.count == head.count || whole[whole.startIndex + head.count] == UInt8(ascii: "/")
    }
}

/// A `<Location>` or `<Directory>` whose `Require`/auth keeps some visitors out.
struct ApacheGuard: Sendable {
    enum Subject: Sendable {
        case url(String)
        case folder(String)
    }
    var subject: Subject
    /// The `Require` line (or `AuthType`) that keeps them out.
    var location: SourceLocation
    var what: String
    /// False for a line that lets visitors in (`Require all granted`).
    var denies: Bool
}
