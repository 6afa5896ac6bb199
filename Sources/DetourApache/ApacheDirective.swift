import DetourDiagnostics

/// One directive, or one `<Section …>` with the directives inside it, after line
/// continuations, quoting and `${VAR}` are applied.
struct ApacheDirective: Sendable {
    /// Lowercased: Apache's directive and section names ignore case.
    var name: String
    var arguments: [String]
    var location: SourceLocation
    /// A section's directives (`<VirtualHost>`, `<Location>` …); nil for a plain directive.
    var children: [ApacheDirective]?

    var isSection: Bool { children != nil }
}
