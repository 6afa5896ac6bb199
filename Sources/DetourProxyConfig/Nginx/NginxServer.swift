import DetourDiagnostics

/// A `server` block: its names, effective settings and locations.
final class NginxServer: @unchecked Sendable {
    let directive: ConfigDirective
    let scope: NginxScope
    let inherited: NginxScope
    let locations: [NginxLocation]
    /// Every location, nested ones included, depth first.
    let allLocations: [NginxLocation]

    init(directive: ConfigDirective, inherited: NginxScope, diagnostics: inout [Diagnostic]) {
        self.directive = directive
        self.inherited = inherited
        scope = inherited.entering(directive, diagnostics: &diagnostics)
        let ownScope = scope
        locations = (directive.block ?? []).filter { $0.name == "location" }.map {
            NginxLocation(directive: $0, inherited: ownScope, diagnostics: &diagnostics)
        }
        allLocations = locations.flatMap(\.allLocations)
    }

    /// `example.com` (or `_` / the listen address when nameless), for the coverage table.
    var displayName: String {
        let body = directive.block ?? []
        if let names = body.first(where: { $0.name == "server_name" })?.values, let first = names.first { return first }
        if let listen = body.first(where: { $0.name == "listen" })?.values.first { return "listen \(listen)" }
        return "server"
    }

    var definesErrorPages: Bool { (directive.block ?? []).contains { $0.name == "error_page" } }

    func namedLocation(_ name: String) -> NginxLocation? {
        locations.first { $0.match == .named && $0.pattern == name }
    }

    /// The location nginx picks for `uri`: an exact match; else the longest prefix, searched
    /// again inside it; a `^~` prefix stops there; else the first matching regex, those nested
    /// in the chosen prefix first; else the longest prefix.
    func location(for uri: String) -> NginxLocation? {
        Self.find(uri, in: locations)
    }

    private static func find(_ uri: String, in locations: [NginxLocation]) -> NginxLocation? {
        if let exact = locations.first(where: { $0.match == .exact && $0.pattern == uri }) { return exact }
        let prefix = locations
            .filter { ($0.match == .prefix || $0.match == .preferredPrefix) && uri.hasPrefix($0.pattern) }
            .max { $0.pattern.count < $1.pattern.count }
        var chosen = prefix
        if let prefix {
            if let nested = find(uri, in: prefix.children) { chosen = nested }
            if prefix.match == .preferredPrefix { return chosen }
            if let nested = chosen, nested !== prefix, case .regex = nested.match { return nested }
        }
        if let regex = locations.first(where: { if case .regex = $0.match { return $0.matches(uri) } else { return false } }) {
            return regex
        }
        return chosen
    }
}
