import CCMark
import Foundation

/// Reads Markdown into a `MarkdownNode` tree: libcmark parses CommonMark, and the GitHub block
/// extensions are worked in from the source lines it points at (`TableParagraph`), footnote
/// definitions taken out before it reads them (`FootnoteDefinitions`), the inline ones from its
/// tree (`Footnotes`, `GitHubInlines`, `GitHubBlocks`). The only type that touches libcmark.
struct MarkdownParser {
    /// What every fragment of one document shares.
    final class Document {
        let options: Int32
        /// Lines that may define link references, put after each fragment parsed apart (cells,
        /// text around a table) so its reference links resolve as they do in the whole text.
        let referenceLines: String

        init(options: Int32, lines: [ArraySlice<UInt8>]) {
            self.options = options
            referenceLines = Self.referenceDefinitions(in: lines)
        }

        private static func referenceDefinitions(in lines: [ArraySlice<UInt8>]) -> String {
            var found: [String] = []
            for line in lines {
                var text = Substring(decoding: line, as: UTF8.self)
                while let first = text.first, first == " " || first == "\t" || first == ">" { text = text.dropFirst() }
                if text.hasPrefix("["), text.contains("]:") { found.append(String(text)) }
            }
            return found.joined(separator: "\n\n")
        }
    }

    let document: Document
    /// The text this parser reads, split into lines without their endings.
    let lines: [ArraySlice<UInt8>]
    /// The line of the original Markdown each of `lines` came from.
    let lineMap: [Int]

    static func parse(_ markdown: String, options markdownOptions: MarkdownOptions) -> MarkdownNode {
        var options = CMARK_OPT_VALIDATE_UTF8
        if markdownOptions.smartPunctuation { options |= CMARK_OPT_SMART }
        if markdownOptions.rawHTML { options |= CMARK_OPT_UNSAFE }
        var lines = splitLines(Array(markdown.utf8))
        let probe = MarkdownParser(document: Document(options: options, lines: []), lines: [], lineMap: [])
        let footnotes = FootnoteDefinitions(lines: lines, startsBlock: probe.startsBlock)
        var text = markdown
        if !footnotes.definitions.isEmpty {
            lines = footnotes.lines
            text = String(decoding: Array(lines.joined(separator: [0x0A])), as: UTF8.self)
        }
        let parser = MarkdownParser(document: Document(options: options, lines: lines), lines: lines, lineMap: Array(1...max(lines.count, 1)))
        var root = MarkdownNode(.document, line: 1, children: parser.blocks(of: text))
        Footnotes.apply(to: &root, definitions: footnotes.definitions.map { ($0.label, parser.fragment($0.lines)) }, smart: markdownOptions.smartPunctuation)
        GitHubBlocks.apply(to: &root)
        GitHubInlines.apply(to: &root, smart: markdownOptions.smartPunctuation)
        return root
    }

    /// The blocks of `text`, converted.
    func blocks(of text: String) -> [MarkdownNode] {
        let utf8 = Array(text.utf8)
        guard let root = cmark_parse_document(utf8, utf8.count, document.options) else { return [] }
        defer { cmark_node_free(root) }
        return children(of: root, line: 0)
    }

    /// A fragment of this text (lines given relative to it) parsed on its own.
    func fragment(_ fragmentLines: [(text: String, line: Int)]) -> [MarkdownNode] {
        guard !fragmentLines.isEmpty else { return [] }
        let text = fragmentLines.map(\.text).joined(separator: "\n") + "\n\n" + document.referenceLines
        let parser = MarkdownParser(document: document, lines: Self.splitLines(Array(text.utf8)), lineMap: fragmentLines.map(\.line))
        // Anything from the appended reference lines maps to no line and is not the fragment's.
        return parser.blocks(of: text).filter { $0.line > 0 }
    }

    /// Inline Markdown of table cells, parsed in one go; cell `n`'s inlines are element `n`.
    func inlines(ofCells cells: [(text: String, line: Int)]) -> [[MarkdownNode]] {
        // A leading punctuation mark keeps a cell from starting a block (`# x`, `- x`, `> x`) and
        // counts as the start of a line for emphasis; it is taken off again below.
        let text = cells.map { Self.cellGuard + $0.text }.joined(separator: "\n\n") + "\n\n" + document.referenceLines
        let parser = MarkdownParser(document: document, lines: Self.splitLines(Array(text.utf8)), lineMap: cells.flatMap { [$0.line, $0.line] })
        let paragraphs = parser.blocks(of: text).prefix(cells.count)
        var result = paragraphs.map { paragraph -> [MarkdownNode] in
            var inlines = paragraph.children
            if case .text(let literal)? = inlines.first?.kind, literal.hasPrefix(Self.cellGuard) {
                let rest = String(literal.dropFirst())
                if rest.isEmpty { inlines.removeFirst() } else { inlines[0].kind = .text(rest) }
            }
            return inlines
        }
        while result.count < cells.count { result.append([]) }
        return result
    }

    private static let cellGuard = "\u{A1}"

    /// Whether `line` (indented relative to its container) would start a block other than a
    /// paragraph, which ends a table where a paragraph would go on.
    func startsBlock(_ line: String) -> Bool {
        let utf8 = Array(line.utf8)
        guard let root = cmark_parse_document(utf8, utf8.count, document.options) else { return false }
        defer { cmark_node_free(root) }
        guard let first = cmark_node_first_child(root) else { return false }
        return cmark_node_get_type(first) != CMARK_NODE_PARAGRAPH
    }

    func originalLine(_ line: Int32) -> Int {
        let index = Int(line) - 1
        return lineMap.indices.contains(index) ? lineMap[index] : 0
    }

    /// `line` is the enclosing block's: inline nodes carry no position in cmark 0.30.
    private func children(of node: OpaquePointer, line: Int) -> [MarkdownNode] {
        var converted: [MarkdownNode] = []
        var child = cmark_node_first_child(node)
        while let current = child {
            converted += convert(current, enclosingLine: line)
            child = cmark_node_next(current)
        }
        return converted
    }

    private func convert(_ node: OpaquePointer, enclosingLine: Int) -> [MarkdownNode] {
        let start = cmark_node_get_start_line(node)
        let line = start > 0 ? originalLine(start) : enclosingLine
        let literal = { cmark_node_get_literal(node).map { String(cString: $0) } ?? "" }
        let kind: MarkdownNode.Kind
        switch cmark_node_get_type(node) {
        case CMARK_NODE_BLOCK_QUOTE: kind = .blockQuote
        case CMARK_NODE_LIST:
            kind = .list(
                ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST, start: Int(cmark_node_get_list_start(node)),
                tight: cmark_node_get_list_tight(node) != 0)
        case CMARK_NODE_ITEM: kind = .item(checked: nil)
        case CMARK_NODE_CODE_BLOCK:
            kind = .codeBlock(info: cmark_node_get_fence_info(node).map { String(cString: $0) } ?? "", literal: literal())
        case CMARK_NODE_HTML_BLOCK: kind = .htmlBlock(literal())
        case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING:
            if let table = TableParagraph(parser: self, node: node)?.blocks() { return table }
            let level = Int(cmark_node_get_heading_level(node))
            kind = cmark_node_get_type(node) == CMARK_NODE_PARAGRAPH ? .paragraph : .heading(level: level)
        case CMARK_NODE_THEMATIC_BREAK: kind = .thematicBreak
        case CMARK_NODE_TEXT: kind = .text(literal())
        case CMARK_NODE_SOFTBREAK: kind = .softBreak
        case CMARK_NODE_LINEBREAK: kind = .lineBreak
        case CMARK_NODE_CODE: kind = .code(literal())
        case CMARK_NODE_HTML_INLINE: kind = .htmlInline(literal())
        case CMARK_NODE_EMPH: kind = .emphasis
        case CMARK_NODE_STRONG: kind = .strong
        case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
            let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
            let title = cmark_node_get_title(node).map { String(cString: $0) } ?? ""
            kind = cmark_node_get_type(node) == CMARK_NODE_LINK ? .link(url: url, title: title) : .image(url: url, title: title)
        default:
            // Custom nodes are never parsed from text.
            return []
        }
        return [MarkdownNode(kind, line: line, children: children(of: node, line: line))]
    }

    /// Lines without their endings (`\n`, `\r\n`).
    static func splitLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        for index in lines.indices where lines[index].last == 0x0D { lines[index] = lines[index].dropLast() }
        return lines
    }

    /// Positions of a block as libcmark reports them: 1-based lines, the first line's 1-based column.
    struct Span {
        var startLine: Int
        var startColumn: Int
        var endLine: Int
        var blockQuoteDepth: Int
        /// A list item holds the block inside its innermost block quote (or outside any).
        var itemInsideQuote: Bool
    }

    func span(of node: OpaquePointer) -> Span {
        var depth = 0
        var itemInsideQuote = false
        var ancestor = cmark_node_parent(node)
        while let current = ancestor {
            if cmark_node_get_type(current) == CMARK_NODE_BLOCK_QUOTE { depth += 1 }
            if cmark_node_get_type(current) == CMARK_NODE_ITEM, depth == 0 { itemInsideQuote = true }
            ancestor = cmark_node_parent(current)
        }
        return Span(
            startLine: Int(cmark_node_get_start_line(node)), startColumn: Int(cmark_node_get_start_column(node)),
            endLine: Int(cmark_node_get_end_line(node)), blockQuoteDepth: depth, itemInsideQuote: itemInsideQuote)
    }

    func isSetextHeading(_ node: OpaquePointer) -> Bool {
        cmark_node_get_type(node) == CMARK_NODE_HEADING && cmark_node_get_end_line(node) > cmark_node_get_start_line(node)
    }
}
