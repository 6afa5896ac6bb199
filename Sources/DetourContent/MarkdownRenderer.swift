import DetourDiagnostics

/// Renders Markdown found in content files, checking each link against the site and reporting
/// broken ones at their place in the file.
public struct MarkdownRenderer: Sendable {
    public let resolver: LinkResolver
    public let allowRawHTML: Bool

    public init(resolver: LinkResolver, allowRawHTML: Bool) {
        self.resolver = resolver
        self.allowRawHTML = allowRawHTML
    }

    /// - Parameters:
    ///   - fromPath: content-relative path of the file, for relative `.md` links.
    ///   - start: where the Markdown text's first line sits in that file; its column is the
    ///     indentation every line carries there (YAML block scalars are indented).
    ///   - root: prefix for help-site links (see `LinkResolver`).
    public func render(_ markdown: String, fromPath: String, start: SourceLocation, root: String) -> (MarkdownDocument.Rendered, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let rendered = MarkdownDocument(markdown, allowRawHTML: allowRawHTML).render { link in
            switch resolver.resolve(link.destination, fromPath: fromPath, root: root) {
            case .keep:
                return link.destination
            case .rewrite(let destination):
                return destination
            case .broken(let message):
                let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
                let location = Self.locate(link, in: lines, start: start)
                diagnostics.append(.error("markdown.broken-link", message, at: location))
                return link.destination
            }
        }
        return (rendered, diagnostics)
    }

    /// Plain text for terminals and JSON, links rewritten under `root` as `render` does; links
    /// are checked by `render`, so broken ones are kept as written here.
    public func plainText(_ markdown: String, fromPath: String, root: String) -> String {
        MarkdownDocument(markdown, allowRawHTML: false).plainText { link in
            if case .rewrite(let destination) = resolver.resolve(link.destination, fromPath: fromPath, root: root) { return destination }
            return link.destination
        }
    }

    /// The link's block line is known; find the destination text from there for an exact column.
    private static func locate(_ link: MarkdownDocument.Link, in lines: [Substring], start: SourceLocation) -> SourceLocation {
        var index = max(link.line - 1, 0)
        while index < lines.count {
            if let range = lines[index].range(of: link.destination) {
                let column = lines[index].distance(from: lines[index].startIndex, to: range.lowerBound) + 1
                return SourceLocation(path: start.path, line: start.line + index, column: column + start.column - 1)
            }
            index += 1
        }
        return start.shifted(lines: max(link.line - 1, 0))
    }
}
