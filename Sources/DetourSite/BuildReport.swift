import DetourDiagnostics

/// What a build did: its findings and, when it wrote output, what it wrote.
public struct BuildReport: Sendable {
    public var diagnostics: [Diagnostic] = []
    /// True when the output folder was replaced.
    public var wroteOutput = false
    /// Codes with an error page, each written in every language and format.
    public var errorPages = 0
    public var articles = 0
    public var files = 0
}
