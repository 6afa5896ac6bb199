import DetourDiagnostics

/// Splits a Markdown file into its `---`-fenced YAML front matter and body, as Hugo and Jekyll do.
struct FrontMatter {
    var yaml: String
    /// Lines above the YAML text (the opening fence).
    var yamlLineOffset: Int
    var body: String
    /// 1-based line of the file on which the body starts.
    var bodyStartLine: Int

    static func split(_ file: SourceFile) -> Result<FrontMatter, Diagnostic> {
        var lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.first?.hasPrefix("\u{FEFF}") == true { lines[0] = lines[0].dropFirst() }
        guard let first = lines.first, first.trimmingTrailingCR() == "---" else {
            return .failure(.error("article.missing-front-matter", "article must start with YAML front matter between '---' lines (title, summary, …)", at: file.start))
        }
        guard let closing = lines.indices.dropFirst().first(where: { ["---", "..."].contains(lines[$0].trimmingTrailingCR()) }) else {
            return .failure(.error("article.unterminated-front-matter", "front matter opened here is never closed with a '---' line", at: file.start))
        }
        return .success(FrontMatter(
            yaml: lines[1..<closing].joined(separator: "\n"),
            yamlLineOffset: 1,
            body: lines[(closing + 1)...].joined(separator: "\n"),
            bodyStartLine: closing + 2
        ))
    }
}

extension Substring {
    func trimmingTrailingCR() -> Substring { hasSuffix("\r") ? dropLast() : self }
}
