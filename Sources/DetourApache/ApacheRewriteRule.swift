import DetourDiagnostics

/// A `RewriteRule` at the top of a site, as far as it decides whether a URL path goes to the
/// upstream: mod_rewrite runs after mod_proxy's `ProxyPass` (a `ProxyPass … !` does not stop a
/// `[P]` rule) and on the internal request of an ErrorDocument.
struct ApacheRewriteRule: Sendable {
    /// The pattern, nil when Foundation cannot read it; `!pattern` matches what it does not.
    var pattern: ApacheRegex?
    var negated: Bool
    var substitution: String
    var proxies: Bool
    /// `[L]`, `[END]` (or `[P]`): no rule after it runs for a path it takes.
    var stops: Bool
    /// Whether `RewriteCond` lines come before it: the request decides, not the path.
    var conditioned: Bool
    var location: SourceLocation

    init(arguments: [String], conditioned: Bool, location: SourceLocation) {
        let written = arguments[0]
        negated = written.hasPrefix("!")
        pattern = ApacheRegex(negated ? String(written.dropFirst()) : written)
        substitution = arguments[1]
        let flags = arguments.count > 2 ? Self.flags(arguments[2]) : []
        proxies = Self.proxies(flags)
        stops = proxies || flags.contains("l") || flags.contains("last") || flags.contains("end")
        self.conditioned = conditioned
        self.location = location
    }

    /// The names in `[flag,flag=value]`, lowercased.
    static func flags(_ written: String) -> [String] {
        guard written.hasPrefix("["), written.hasSuffix("]") else { return [] }
        return written.dropFirst().dropLast().split(separator: ",").map { $0.split(separator: "=", maxSplits: 1).first?.lowercased() ?? "" }
    }

    /// Whether the flags hand the request to mod_proxy (`[P]`; `[PT]` is another flag).
    static func proxies(_ flags: [String]) -> Bool { flags.contains("p") || flags.contains("proxy") }

    /// A path every request the rule takes starts with ("/" when the pattern says none).
    var start: String { negated ? "/" : pattern?.literalStart ?? "/" }

    /// What the rules do with `path`: the `[P]` rule that proxies it, or nil when it is served
    /// here or the rules do not tell (a condition decides, or a rule rewrites it elsewhere).
    static func proxy(of path: String, by rules: [ApacheRewriteRule]) -> SourceLocation? {
        for rule in rules {
            guard !rule.conditioned, let pattern = rule.pattern else { return nil }
            guard pattern.matches(path) != rule.negated else { continue }
            if rule.proxies { return rule.location }
            if rule.stops || rule.substitution != "-" { return nil }
        }
        return nil
    }
}
