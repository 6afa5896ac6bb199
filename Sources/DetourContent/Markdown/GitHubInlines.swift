/// Works GitHub's inline extensions into a parsed tree: strikethrough in every inline container,
/// then extended autolinks everywhere but inside links and images, each paragraph's inlines in
/// document order so that an open `[` in one container holds for the ones after it.
enum GitHubInlines {
    /// `smart`: libcmark's smart punctuation is on, which URLs and flags are kept from.
    static func apply(to node: inout MarkdownNode, smart: Bool) {
        var brackets = 0
        apply(to: &node, insideLink: false, smart: smart, brackets: &brackets)
    }

    private static func apply(to node: inout MarkdownNode, insideLink: Bool, smart: Bool, brackets: inout Int) {
        var isLink = insideLink
        switch node.kind {
        case .link, .image: isLink = true
        default: break
        }
        if holdsInlines(node) {
            node.children = Strikethrough.apply(node.children)
            if smart {
                for index in node.children.indices {
                    if case .text(let text) = node.children[index].kind { node.children[index].kind = .text(SmartPunctuation.keepingFlags(text)) }
                }
            }
            node.children = ExtendedAutolinks.apply(node.children, linking: !isLink, smart: smart, brackets: &brackets) { child, brackets in
                apply(to: &child, insideLink: isLink, smart: smart, brackets: &brackets)
            }
        } else {
            for index in node.children.indices {
                // Brackets open in one block never reach into the next.
                var blockBrackets = 0
                apply(to: &node.children[index], insideLink: isLink, smart: smart, brackets: &blockBrackets)
            }
        }
    }

    private static func holdsInlines(_ node: MarkdownNode) -> Bool {
        switch node.kind {
        case .paragraph, .heading, .tableCell, .emphasis, .strong, .strikethrough, .link, .image: return true
        default: return false
        }
    }
}
