import DetourDiagnostics

/// Reads Markdown found in content files, checking each link against the site and reporting
/// broken ones at their place in the file, and renders the parsed trees for pages, each with
/// its own root.
public struct MarkdownRenderer: Sendable {
    /// A link to a heading, kept until every article's headings are known.
    public struct FragmentLink: Sendable {
        /// The article linked to; nil for the page the link is on.
        public var slug: String?
        public var fragment: String
        public var destination: String
        public var location: SourceLocation
    }

    public struct Result: Sendable {
        /// The text parsed once, for pages to render with their own root.
        public var document: MarkdownDocument
        public var headings: [MarkdownDocument.Heading]
        /// What a link's `#part` may name (`MarkdownDocument.anchors`).
        public var anchors: [String]
        public var sections: [MarkdownDocument.Section]
        public var diagnostics: [Diagnostic]
        public var fragmentLinks: [FragmentLink]
        public var codeBlocks: [CodeBlock]
    }

    public let resolver: LinkResolver
    public let markdown: MarkdownOptions
    /// The alerts' titles in the language of the text rendered (`> [!TIP]` → "Tipp").
    public var alertTitles: [MarkdownNode.AlertKind: String] = [:]
    /// What a footnote's links back to the text say to a screen reader (`footnote_back`).
    public var backReferenceLabel: String?

    public init(resolver: LinkResolver, markdown: MarkdownOptions) {
        self.resolver = resolver
        self.markdown = markdown
    }

    /// The same renderer for text in a language with these UI strings (`alert_note`, …).
    public func speaking(_ strings: [String: String]) -> MarkdownRenderer {
        var renderer = self
        for kind in MarkdownNode.AlertKind.allCases {
            if let title = strings["alert_" + kind.rawValue] { renderer.alertTitles[kind] = title }
        }
        renderer.backReferenceLabel = strings["footnote_back"]
        return renderer
    }

    /// Parses `markdown` once and checks its links; pages render the tree with `html`.
    /// - Parameters:
    ///   - fromPath: content-relative path of the file, for relative `.md` links.
    ///   - start: where the Markdown text's first line sits in that file; its column is the
    ///     indentation every line carries there (YAML block scalars are indented).
    public func read(_ markdown: String, fromPath: String, start: SourceLocation) -> Result {
        let document = MarkdownDocument(markdown, options: self.markdown)
        var diagnostics: [Diagnostic] = []
        var fragmentLinks: [FragmentLink] = []
        // Split on the bytes: by characters it was a large share of reading an article, and
        // "\r\n", one character, never split, which put CRLF files' links on their first line.
        let lines = markdown.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
        for link in document.links {
            let resolution = resolver.resolve(link.destination, fromPath: fromPath, root: "")
            switch resolution {
            case .broken(let message):
                diagnostics.append(.error("markdown.broken-link", message, at: Self.locate(link, in: lines, start: start)))
                continue
            case .notInSite(let message):
                // An error under --strict, as every warning is.
                diagnostics.append(.warning("markdown.broken-link", message, at: Self.locate(link, in: lines, start: start)))
                continue
            case .keep, .rewrite: break
            }
            if let (slug, fragment) = resolver.fragmentTarget(link.destination, fromPath: fromPath) {
                fragmentLinks.append(
                    FragmentLink(slug: slug, fragment: fragment, destination: link.destination, location: Self.locate(link, in: lines, start: start)))
            }
        }
        let codeBlocks = document.fencedCodeBlocks.map { block in
            let fence = block.fenceLine - 1 < lines.count ? lines[block.fenceLine - 1] : ""
            let indent = fence.prefix { $0 == " " }.count
            return CodeBlock(
                language: block.language, code: block.code,
                start: SourceLocation(path: start.path, line: start.line + block.fenceLine, column: start.column + indent))
        }
        return Result(
            document: document, headings: document.headings, anchors: document.anchors, sections: document.sections, diagnostics: diagnostics,
            fragmentLinks: fragmentLinks, codeBlocks: codeBlocks)
    }

    /// A parsed document's HTML with help-site links under `root`; its links were checked when
    /// it was read, so broken ones are written as they are.
    public func html(_ document: MarkdownDocument, fromPath: String, root: String) -> String {
        document.html(
            resolveLink: { link in rewrite(link, fromPath: fromPath, root: root) }, headingAnchors: true, highlight: CodeHighlighter.highlight,
            alertTitle: alertTitles.isEmpty ? nil : { [alertTitles] kind in alertTitles[kind] ?? kind.rawValue },
            backReferenceLabel: backReferenceLabel)
    }

    /// Plain text for terminals and JSON, links rewritten under `root` as `html` does; links
    /// are checked by `read`, so broken ones are kept as written here.
    public func plainText(_ document: MarkdownDocument, fromPath: String, root: String) -> String {
        document.plainText { rewrite($0, fromPath: fromPath, root: root) }
    }

    /// A help-site link's destination under `root`; anything else, broken links too, as written.
    private func rewrite(_ link: MarkdownDocument.Link, fromPath: String, root: String) -> String {
        if case .rewrite(let destination) = resolver.resolve(link.destination, fromPath: fromPath, root: root) { return destination }
        return link.destination
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
