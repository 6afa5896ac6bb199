import DetourLayout
import DetourYAML
import Foundation

/// Markdown parsed once (`MarkdownParser`: CommonMark by libcmark, GitHub's extensions on top)
/// and rendered as often as pages need it, each time with its own link rewriting.
public struct MarkdownDocument: Sendable {
    public struct Heading: Sendable, Equatable {
        public var level: Int
        public var text: String
        public var id: String
    }

    public struct Link: Sendable, Equatable {
        public var destination: String
        /// 1-based line in the Markdown text of the block holding the link.
        public var line: Int
    }

    /// A page's text between two headings, for search: the text before the first heading has none.
    public struct Section: Sendable, Equatable {
        public var heading: Heading?
        public var text: String

        public init(heading: Heading?, text: String) {
            self.heading = heading
            self.text = text
        }

        /// Ends a block or line with one space, so words either side stay apart.
        mutating func separate() {
            if let last = text.last, last != " " { text += " " }
        }
    }

    public struct Rendered: Sendable {
        public var html: String
        public var headings: [Heading]
        /// Plain text split at every h1–h3, wherever it is nested.
        public var sections: [Section]
    }

    /// No text: what stands where a tree was let go.
    public static let empty = MarkdownDocument("")

    public let root: MarkdownNode
    public let options: MarkdownOptions
    /// Every heading, nested ones too, in document order, with a unique id.
    public let headings: [Heading]
    /// What a link's `#part` may name: the headings' ids, then, where raw HTML is let through,
    /// its elements' `id`s and its `<a>`s' `name`s (`<a id="legacy"></a>`), as on GitHub.
    public let anchors: [String]

    public init(_ markdown: String, options: MarkdownOptions = MarkdownOptions()) {
        self.options = options
        root = MarkdownParser.parse(markdown, options: options)
        var used: [String: Int] = [:]
        var headings: [Heading] = []
        root.forEach { node in
            guard case .heading(let level) = node.kind else { return }
            let text = node.plainText.trimmingWhitespace()
            headings.append(Heading(level: level, text: text, id: Self.uniqueID(for: text, used: &used)))
        }
        self.headings = headings
        var anchors = headings.map(\.id)
        if options.rawHTML {
            root.forEach { node in
                switch node.kind {
                case .htmlBlock(let html), .htmlInline(let html): anchors += Self.htmlAnchors(in: html)
                default: break
                }
            }
        }
        self.anchors = anchors
    }

    /// The `id` of each element in `html`, and the `name` of each `<a>`.
    static func htmlAnchors(in html: String) -> [String] {
        var found: [String] = []
        for tag in html.matches(of: #/<([A-Za-z][A-Za-z0-9-]*)(\s[^<>]*)>/#) {
            let isLink = tag.output.1.lowercased() == "a"
            for attribute in tag.output.2.matches(of: #/(?i)\s(id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/#) {
                guard attribute.output.1.lowercased() == "id" || isLink else { continue }
                if let value = attribute.output.2 ?? attribute.output.3 ?? attribute.output.4, !value.isEmpty { found.append(String(value)) }
            }
        }
        return found
    }

    /// Every link and image destination, with the line of the block holding it.
    public var links: [Link] {
        var links: [Link] = []
        root.forEach { node in
            switch node.kind {
            case .link(let url, _), .image(let url, _): links.append(Link(destination: url, line: node.line))
            default: break
            }
        }
        return links
    }

    /// The code blocks with an info string: their first word, text, and the line of the fence.
    public var fencedCodeBlocks: [(language: String, code: String, fenceLine: Int)] {
        var blocks: [(language: String, code: String, fenceLine: Int)] = []
        root.forEach { node in
            guard case .codeBlock(let info, let literal) = node.kind else { return }
            let language = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map { $0.lowercased() } ?? ""
            if !language.isEmpty { blocks.append((language, literal, node.line)) }
        }
        return blocks
    }

    /// HTML for a page. `resolveLink` sees every link and image destination and returns the
    /// destination to write (or the same string to keep it).
    public func html(
        resolveLink: @escaping (Link) -> String = { $0.destination }, headingAnchors: Bool = false,
        highlight: @escaping (_ info: String, _ code: String) -> String? = { _, _ in nil },
        alertTitle: ((MarkdownNode.AlertKind) -> String)? = nil, backReferenceLabel: String? = nil
    ) -> String {
        var options = MarkdownHTMLWriter.Options()
        options.allowRawHTML = self.options.rawHTML
        options.headingIDs = headings.map(\.id)
        options.headingAnchors = headingAnchors
        options.resolveLink = { resolveLink(Link(destination: $0, line: $1)) }
        options.highlight = highlight
        if let alertTitle { options.alertTitle = alertTitle }
        if let backReferenceLabel { options.backReferenceLabel = backReferenceLabel }
        return MarkdownHTMLWriter.render(root, options: options)
    }

    /// HTML without ids or anchors, as cmark-gfm writes it.
    func plainHTML() -> String {
        var options = MarkdownHTMLWriter.Options()
        options.allowRawHTML = self.options.rawHTML
        return MarkdownHTMLWriter.render(root, options: options)
    }

    /// Renders to HTML with heading ids, and the headings and sections.
    public func render(resolveLink: @escaping (Link) -> String = { $0.destination }) -> Rendered {
        Rendered(html: html(resolveLink: resolveLink), headings: headings, sections: sections)
    }

    /// Headings up to this level start a section of their own (h2, h3; h1 in a body too).
    static let sectionLevel = 3

    /// Plain text split at every h1–h3, wherever it is nested.
    public var sections: [Section] {
        var sections = [Section(heading: nil, text: "")]
        var pending = headings[...]
        func visit(_ node: MarkdownNode) {
            switch node.kind {
            case .heading(let level):
                let heading = pending.popFirst()
                if level <= Self.sectionLevel, let heading {
                    sections.append(Section(heading: heading, text: ""))
                    return
                }
                // A smaller heading is text of its section.
                node.children.forEach(visit)
                sections[sections.count - 1].separate()
                return
            case .text(let literal), .code(let literal):
                sections[sections.count - 1].text += literal
            case .codeBlock(_, let literal):
                sections[sections.count - 1].text += literal
                sections[sections.count - 1].separate()
            case .softBreak, .lineBreak:
                sections[sections.count - 1].separate()
            default:
                break
            }
            node.children.forEach(visit)
            switch node.kind {
            case .paragraph, .item, .tableCell: sections[sections.count - 1].separate()
            default: break
            }
        }
        visit(root)
        sections = sections.map { Section(heading: $0.heading, text: $0.text.trimmingWhitespace()) }
        if sections[0].text.isEmpty { sections.removeFirst() }
        return sections
    }

    /// The text a terminal shows: paragraphs apart, list items as `- `, a link as its text and,
    /// when it differs, its destination in parentheses; raw HTML left out.
    public func plainText(resolveLink: (Link) -> String = { $0.destination }) -> String {
        var text = ""
        var footnotes = 0
        func visit(_ node: MarkdownNode, tightList: Bool) {
            switch node.kind {
            case .text(let literal), .code(let literal): text += literal
            case .footnoteReference(_, let number, _): text += "[\(number)]"
            case .footnoteDefinition:
                footnotes += 1
                text += "[\(footnotes)] "
            case .softBreak: text += " "
            case .lineBreak: text += "\n"
            case .codeBlock(_, let literal): text += literal + "\n"
            case .item(let checked):
                text += "- " + (checked.map { $0 ? "[x] " : "[ ] " } ?? "")
            case .tableCell: if !text.hasSuffix("\n"), !text.isEmpty { text += " | " }
            default: break
            }
            let start = text.endIndex
            var isTight = tightList
            if case .list(_, _, let tight) = node.kind { isTight = tight }
            for child in node.children { visit(child, tightList: isTight) }
            switch node.kind {
            case .paragraph: text += tightList ? "\n" : "\n\n"
            case .heading, .table, .alert, .footnoteDefinition: text += "\n\n"
            case .tableRow: text += "\n"
            case .list: if !text.hasSuffix("\n\n") { text += "\n" }
            case .link(let url, _):
                let shown = String(text[start...])
                let resolved = resolveLink(Link(destination: url, line: node.line))
                if !resolved.isEmpty, !resolved.hasPrefix("#"), resolved != shown { text += " (\(resolved))" }
            default: break
            }
        }
        visit(root, tightList: false)
        while text.contains("\n\n\n") { text = text.replacingOccurrences(of: "\n\n\n", with: "\n\n") }
        return text.trimmingWhitespace()
    }

    /// GitHub's id for a heading: a repeated one takes the next `-1`, `-2`… of its own count
    /// that no heading has yet (`echo`, `echo`, `echo 1` → `echo`, `echo-1`, `echo-1-1`). A
    /// heading with no letter or digit, which GitHub gives an empty id, is `section`.
    static func uniqueID(for text: String, used: inout [String: Int]) -> String {
        let slug = Slug.github(text)
        let base = slug.isEmpty ? "section" : slug
        var id = base
        while used[id] != nil {
            let count = used[base, default: 0] + 1
            used[base] = count
            id = "\(base)-\(count)"
        }
        used[id] = 0
        return id
    }
}
