import DetourDiagnostics

extension Diagnostic {
    /// A content file read again during a build that no longer holds what the build checked:
    /// the site would not be the content it checked, so the build stops.
    public static func contentChanged(_ displayPath: String) -> Diagnostic {
        .error("build.content-changed", "'\(displayPath)' changed while the site was being built; build again", at: SourceLocation(path: displayPath))
    }
}
