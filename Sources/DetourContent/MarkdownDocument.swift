import CCMark
import DetourLayout
import DetourYAML
import Foundation

/// CommonMark rendered by libcmark: smart punctuation on, raw HTML omitted unless allowed,
/// every heading given a stable id, every link passed through a resolver that may rewrite it.
/// The only type that touches libcmark; it frees everything it allocates.
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

    public var markdown: String
    public var allowRawHTML: Bool

    public init(_ markdown: String, allowRawHTML: Bool = false) {
        self.markdown = markdown
        self.allowRawHTML = allowRawHTML
    }

    /// Renders to HTML. `resolveLink` sees every link and image destination and returns the
    /// destination to write (or the same string to keep it).
    public func render(resolveLink: (Link) -> String = { $0.destination }) -> Rendered {
        var options = CMARK_OPT_SMART | CMARK_OPT_VALIDATE_UTF8
        if allowRawHTML { options |= CMARK_OPT_UNSAFE }
        let utf8 = Array(markdown.utf8)
        guard let document = cmark_parse_document(utf8, utf8.count, options) else {
            return Rendered(html: "", headings: [], sections: [])
        }
        defer { cmark_node_free(document) }

        var headings: [Heading] = []
        var usedIDs: [String: Int] = [:]
        var sections = [Section(heading: nil, text: "")]
        var headingDepth = 0

        Self.walk(document) { event, node in
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_HEADING {
                // A section's own heading is its title, not its text; a smaller heading is text.
                let level = Int(cmark_node_get_heading_level(node))
                if level <= Self.sectionLevel { headingDepth += event == CMARK_EVENT_ENTER ? 1 : -1 }
                guard event == CMARK_EVENT_ENTER else {
                    sections[sections.count - 1].separate()
                    return
                }
                let text = Self.text(of: node)
                let heading = Heading(level: level, text: text, id: Self.uniqueID(for: text, used: &usedIDs))
                headings.append(heading)
                if level <= Self.sectionLevel { sections.append(Section(heading: heading, text: "")) }
                return
            }
            if event == CMARK_EVENT_EXIT {
                if type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_ITEM { sections[sections.count - 1].separate() }
                return
            }
            switch type {
            case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                let destination = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                let resolved = resolveLink(Link(destination: destination, line: Self.blockLine(of: node)))
                if resolved != destination { cmark_node_set_url(node, resolved) }
            case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_CODE_BLOCK:
                guard headingDepth == 0, let literal = cmark_node_get_literal(node) else { break }
                sections[sections.count - 1].text += String(cString: literal)
                if type == CMARK_NODE_CODE_BLOCK { sections[sections.count - 1].separate() }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                if headingDepth == 0 { sections[sections.count - 1].separate() }
            default: break
            }
        }

        // cmark writes bare <hN> and, in safe mode, drops custom blocks as raw HTML. So render the
        // top-level blocks one by one and give each heading, nested ones too, its id in order.
        var html = ""
        var pending = headings[...]
        var child = cmark_node_first_child(document)
        while let block = child {
            guard let rendered = cmark_render_html(block, options) else { break }
            var piece = String(cString: rendered)
            free(rendered)
            for _ in 0..<Self.headingCount(in: block) {
                guard let heading = pending.popFirst() else { break }
                piece = Self.addID(heading, to: piece)
            }
            html += piece
            child = cmark_node_next(block)
        }
        sections = sections.map { Section(heading: $0.heading, text: $0.text.trimmingWhitespace()) }
        if sections[0].text.isEmpty { sections.removeFirst() }
        return Rendered(html: html, headings: headings, sections: sections)
    }

    /// Headings up to this level start a section of their own (h2, h3; h1 in a body too).
    static let sectionLevel = 3

    private static func headingCount(in block: OpaquePointer) -> Int {
        switch cmark_node_get_type(block) {
        case CMARK_NODE_HEADING: return 1
        case CMARK_NODE_BLOCK_QUOTE, CMARK_NODE_LIST, CMARK_NODE_CUSTOM_BLOCK: break
        // Only containers hold headings.
        default: return 0
        }
        var count = 0
        walk(block) { event, node in
            if event == CMARK_EVENT_ENTER, cmark_node_get_type(node) == CMARK_NODE_HEADING { count += 1 }
        }
        return count
    }

    /// The first bare `<hN>` left in the piece gets the heading's id. Text and code are escaped,
    /// so only a heading cmark wrote can match.
    private static func addID(_ heading: Heading, to piece: String) -> String {
        let plainTag = "<h\(heading.level)>"
        guard let range = piece.range(of: plainTag) else { return piece }
        return piece.replacingCharacters(in: range, with: "<h\(heading.level) id=\"\(heading.id)\">")
    }

    /// The text a terminal shows: paragraphs apart, list items as `- `, a link as its text and,
    /// when it differs, its destination in parentheses; raw HTML left out.
    public func plainText(resolveLink: (Link) -> String = { $0.destination }) -> String {
        let utf8 = Array(markdown.utf8)
        guard let document = cmark_parse_document(utf8, utf8.count, CMARK_OPT_SMART | CMARK_OPT_VALIDATE_UTF8) else { return "" }
        defer { cmark_node_free(document) }
        var text = ""
        var linkStarts: [String.Index] = []
        Self.walk(document) { event, node in
            let type = cmark_node_get_type(node)
            let literal = { cmark_node_get_literal(node).map { String(cString: $0) } ?? "" }
            if event == CMARK_EVENT_ENTER {
                switch type {
                case CMARK_NODE_TEXT, CMARK_NODE_CODE: text += literal()
                case CMARK_NODE_SOFTBREAK: text += " "
                case CMARK_NODE_LINEBREAK: text += "\n"
                case CMARK_NODE_CODE_BLOCK: text += literal() + "\n"
                case CMARK_NODE_ITEM: text += "- "
                case CMARK_NODE_LINK: linkStarts.append(text.endIndex)
                default: break
                }
            } else if event == CMARK_EVENT_EXIT {
                switch type {
                case CMARK_NODE_PARAGRAPH:
                    // Items of a tight list stay on consecutive lines.
                    let inTightList =
                        cmark_node_parent(node).map { cmark_node_get_type($0) == CMARK_NODE_ITEM } ?? false
                        && cmark_node_parent(cmark_node_parent(node)).map { cmark_node_get_list_tight($0) != 0 } ?? false
                    text += inTightList ? "\n" : "\n\n"
                case CMARK_NODE_HEADING: text += "\n\n"
                case CMARK_NODE_LIST: if !text.hasSuffix("\n\n") { text += "\n" }
                case CMARK_NODE_LINK:
                    let start = linkStarts.popLast() ?? text.endIndex
                    let destination = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                    let shown = String(text[start...])
                    let resolved = resolveLink(Link(destination: destination, line: Self.blockLine(of: node)))
                    if !resolved.isEmpty, !resolved.hasPrefix("#"), resolved != shown { text += " (\(resolved))" }
                default: break
                }
            }
        }
        while text.contains("\n\n\n") { text = text.replacingOccurrences(of: "\n\n\n", with: "\n\n") }
        return text.trimmingWhitespace()
    }

    /// Inline nodes carry no position in cmark 0.30; the enclosing block's start line does.
    private static func blockLine(of node: OpaquePointer) -> Int {
        var current: OpaquePointer? = node
        while let candidate = current {
            let line = Int(cmark_node_get_start_line(candidate))
            if line > 0 { return line }
            current = cmark_node_parent(candidate)
        }
        return 1
    }

    private static func text(of node: OpaquePointer) -> String {
        var text = ""
        walk(node) { _, child in
            let type = cmark_node_get_type(child)
            if type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE, let literal = cmark_node_get_literal(child) {
                text += String(cString: literal)
            } else if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK {
                text += " "
            }
        }
        return text.trimmingWhitespace()
    }

    /// Every enter and exit event of `root` and the nodes below it, in document order
    /// (a leaf node has an enter event only).
    private static func walk(_ root: OpaquePointer, _ visit: (cmark_event_type, OpaquePointer) -> Void) {
        let iterator = cmark_iter_new(root)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            if let node = cmark_iter_get_node(iterator) { visit(event, node) }
        }
    }

    private static func uniqueID(for text: String, used: inout [String: Int]) -> String {
        let base = Slug.make(text).isEmpty ? "section" : Slug.make(text)
        let count = used[base, default: 0]
        used[base] = count + 1
        return count == 0 ? base : "\(base)-\(count)"
    }
}
