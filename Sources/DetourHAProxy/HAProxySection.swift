import DetourDiagnostics

/// A section of the configuration (`global`, `defaults`, `frontend app`, …) and its lines.
struct HAProxySection: Sendable {
    /// `frontend`, `backend`, `listen`, `defaults`, `global`, `http-errors`, …
    var kind: String
    var name: String?
    /// `from <defaults>`: the named defaults section it takes its settings from.
    var from: String?
    var fromLocation: SourceLocation?
    var location: SourceLocation
    var lines: [HAProxyLine] = []

    static let proxies: Set<String> = ["frontend", "backend", "listen"]
}
