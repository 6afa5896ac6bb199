import DetourDiagnostics

/// A `use_backend NAME [if|unless condition]` or `default_backend NAME` line: where the
/// requests it applies to go.
struct HAProxyRoute: Sendable {
    var backend: String
    /// From `if` or `unless` on; empty for `default_backend` and a `use_backend` without one.
    var condition: [String]
    var line: SourceLocation

    init(_ line: HAProxyLine) {
        backend = line.words[1].text
        condition = line.condition
        self.line = line.location
    }

    /// A name built per request (`%[req.hdr(host)]`): the backend cannot be told from the file.
    var isDynamic: Bool { backend.contains("%[") }
}
