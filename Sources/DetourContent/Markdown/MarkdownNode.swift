/// A Markdown document as a value: libcmark's CommonMark tree with the GitHub extensions
/// (tables, strikethrough, extended autolinks, task items, alerts, footnotes) worked into it. Parsed once,
/// rendered as often as pages need it, each time with its own link root.
public struct MarkdownNode: Sendable, Equatable {
    public enum Alignment: Sendable, Equatable {
        case none, left, center, right
    }

    /// GitHub's alert kinds, written `> [!NOTE]` on a block quote's first line.
    public enum AlertKind: String, Sendable, Equatable, CaseIterable {
        case note, tip, important, warning, caution
    }

    public enum Kind: Sendable, Equatable {
        case document
        case blockQuote
        case alert(AlertKind)
        case list(ordered: Bool, start: Int, tight: Bool)
        /// `checked` is nil for an item that is not a task.
        case item(checked: Bool?)
        case codeBlock(info: String, literal: String)
        case htmlBlock(String)
        case paragraph
        case heading(level: Int)
        case thematicBreak
        case table
        case tableRow(header: Bool)
        case tableCell(header: Bool, alignment: Alignment)
        case text(String)
        case softBreak
        case lineBreak
        case code(String)
        case htmlInline(String)
        case emphasis
        case strong
        case strikethrough
        case link(url: String, title: String)
        case image(url: String, title: String)
        /// `[^label]`: the footnote's number, and which reference to it this is (1, 2, …).
        case footnoteReference(label: String, number: Int, occurrence: Int)
        /// The footnotes the text references, in order, after everything else.
        case footnotes
        /// One footnote's blocks; `references` is how many references lead to it.
        case footnoteDefinition(label: String, references: Int)
    }

    public var kind: Kind
    public var children: [MarkdownNode]
    /// 1-based line of the Markdown text the node (or the block holding it) starts on.
    public var line: Int

    public init(_ kind: Kind, line: Int, children: [MarkdownNode] = []) {
        self.kind = kind
        self.line = line
        self.children = children
    }

    var isBlock: Bool {
        switch kind {
        case .document, .blockQuote, .alert, .list, .item, .codeBlock, .htmlBlock, .paragraph, .heading, .thematicBreak, .table, .tableRow,
            .tableCell, .footnotes, .footnoteDefinition:
            return true
        default:
            return false
        }
    }

    /// The node and everything below it, in document order.
    func forEach(_ visit: (MarkdownNode) -> Void) {
        visit(self)
        for child in children { child.forEach(visit) }
    }

    /// The text a heading or an image's alt shows: literals joined, breaks as spaces.
    var plainText: String {
        var text = ""
        forEach { node in
            switch node.kind {
            case .text(let literal), .code(let literal): text += literal
            case .softBreak, .lineBreak: text += " "
            default: break
            }
        }
        return text
    }
}
