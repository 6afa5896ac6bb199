import Foundation

/// Works GitHub's block extensions into a parsed tree: task items (`- [ ] `, `- [x] `) and
/// alerts (a block quote whose first line is `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`, `[!WARNING]`
/// or `[!CAUTION]`).
enum GitHubBlocks {
    static func apply(to node: inout MarkdownNode) {
        for index in node.children.indices { apply(to: &node.children[index]) }
        switch node.kind {
        case .item: markTask(&node)
        case .blockQuote: makeAlert(&node)
        case .list(let ordered, let start, true) where loosenedByTable(node): node.kind = .list(ordered: ordered, start: start, tight: false)
        default: break
        }
    }

    /// cmark-gfm counts a table of a header alone as followed by a blank line, so a list whose
    /// item holds one with anything after it (a block, or the next item) is loose.
    private static func loosenedByTable(_ list: MarkdownNode) -> Bool {
        for (itemIndex, item) in list.children.enumerated() {
            for (index, child) in item.children.enumerated()
            where (itemIndex + 1 < list.children.count || index + 1 < item.children.count) && endsWithTable(child) {
                return true
            }
        }
        return false
    }

    private static func endsWithTable(_ node: MarkdownNode) -> Bool {
        switch node.kind {
        case .table: return node.children.count == 1
        case .list, .item: return node.children.last.map(endsWithTable) ?? false
        default: return false
        }
    }

    /// The item's text starts on its marker's line with `[ ]`, `[x]` or `[X]` and white space.
    private static func markTask(_ item: inout MarkdownNode) {
        guard var paragraph = item.children.first, paragraph.kind == .paragraph, paragraph.line == item.line else { return }
        let lead = leadingText(paragraph.children)
        let scalars = Array(lead.text.unicodeScalars)
        guard scalars.count > 3, scalars[0] == "[", scalars[2] == "]", " xX".unicodeScalars.contains(scalars[1]),
            scalars[3] == " " || scalars[3] == "\t"
        else { return }
        var rest = Substring(lead.text).dropFirst(3)
        while let first = rest.first, first == " " || first == "\t" { rest = rest.dropFirst() }
        paragraph.children.replaceSubrange(0..<lead.count, with: rest.isEmpty ? [] : [MarkdownNode(.text(String(rest)), line: paragraph.line)])
        item.children[0] = paragraph
        item.kind = .item(checked: scalars[1] != " ")
    }

    private static func makeAlert(_ quote: inout MarkdownNode) {
        guard var paragraph = quote.children.first, paragraph.kind == .paragraph else { return }
        let lead = leadingText(paragraph.children)
        let marker = lead.text.trimmingCharacters(in: .whitespaces).uppercased()
        guard marker.hasPrefix("[!"), marker.hasSuffix("]"), let kind = MarkdownNode.AlertKind(rawValue: String(marker.dropFirst(2).dropLast()).lowercased())
        else { return }
        var rest = paragraph.children.dropFirst(lead.count)
        if let next = rest.first {
            guard next.kind == .softBreak || next.kind == .lineBreak else { return }
            rest = rest.dropFirst()
        }
        paragraph.children = Array(rest)
        if paragraph.children.isEmpty { quote.children.removeFirst() } else { quote.children[0] = paragraph }
        quote.kind = .alert(kind)
    }

    /// The text nodes a paragraph starts with, joined, and how many there are.
    private static func leadingText(_ inlines: [MarkdownNode]) -> (text: String, count: Int) {
        var text = ""
        var count = 0
        for node in inlines {
            guard case .text(let literal) = node.kind else { break }
            text += literal
            count += 1
        }
        return (text, count)
    }
}
