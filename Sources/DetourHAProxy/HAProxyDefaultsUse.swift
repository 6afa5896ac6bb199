import DetourDiagnostics

/// How sections use one named `defaults` section, for the two ways HAProxy 2.6 refuses to
/// share one: named with `from` by some and taken implicitly (as the last one) by others; and,
/// when it holds rules, taken by frontends and by backends, or by a listen or defaults section.
struct HAProxyDefaultsUse: Sendable {
    static let ruleKeywords: Set<String> = ["http-request", "http-response", "http-after-response", "tcp-request", "tcp-response"]

    let name: String
    let location: SourceLocation
    let hasRules: Bool
    private var explicit = false
    private var implicit = false
    private var frontends = false
    private var backends = false

    init(name: String, location: SourceLocation, hasRules: Bool) {
        self.name = name
        self.location = location
        self.hasRules = hasRules
    }

    /// Records `section`'s use; HAProxy's refusal when it mixes uses, at that section as HAProxy reports it.
    mutating func record(_ section: HAProxySection) -> Diagnostic? {
        let byName = section.from != nil
        defer {
            if byName { explicit = true } else { implicit = true }
            if section.kind == "frontend" { frontends = true }
            if section.kind == "backend" { backends = true }
        }
        // A section that is frontend and backend at once, or another defaults, cannot keep a
        // reference to its rules (cfgparse-listen.c).
        if hasRules, section.kind == "listen" || section.kind == "defaults" {
            return .error(
                HAProxyRules.syntax.id,
                "a \(section.kind) section cannot take defaults section '\(name)', which holds http-request, http-response or tcp rules: HAProxy refuses the file",
                at: section.location,
                notes: [
                    .init("the defaults section", at: location),
                    .init("fix: give it a defaults section without rules, or move the rules into the proxies"),
                ])
        }
        if byName ? implicit : explicit {
            return .error(
                HAProxyRules.syntax.id,
                "defaults section '\(name)' is named with 'from' by one proxy and taken implicitly, as the last defaults, by another: HAProxy refuses the file ('don't mix both usage')",
                at: section.location,
                notes: [
                    .init("the defaults section", at: location),
                    .init("fix: add an anonymous defaults section after it for the proxies that name none, or name it with 'from' everywhere"),
                ])
        }
        if hasRules, (section.kind == "frontend" && backends) || (section.kind == "backend" && frontends) {
            return .error(
                HAProxyRules.syntax.id,
                "defaults section '\(name)' holds http-request or tcp rules and is taken by frontends and backends both: HAProxy refuses the file",
                at: section.location,
                notes: [
                    .init("the defaults section", at: location),
                    .init("fix: give frontends and backends defaults sections of their own, as detour's snippet does ('detour' and 'detour_backend')"),
                ])
        }
        return nil
    }
}
