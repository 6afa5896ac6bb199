/// Works GitHub's inline extensions into a parsed tree: strikethrough in every inline container,
/// then extended autolinks everywhere but inside links and images.
enum GitHubInlines {
    static func apply(to node: inout MarkdownNode, insideLink: Bool = false) {
        var isLink = insideLink
        switch node.kind {
        case .link, .image: isLink = true
        default: break
        }
        if holdsInlines(node) {
            node.children = Strikethrough.apply(node.children)
            if !isLink { node.children = ExtendedAutolinks.apply(node.children) }
        }
        for index in node.children.indices { apply(to: &node.children[index], insideLink: isLink) }
    }

    private static func holdsInlines(_ node: MarkdownNode) -> Bool {
        switch node.kind {
        case .paragraph, .heading, .tableCell, .emphasis, .strong, .strikethrough, .link, .image: return true
        default: return false
        }
    }
}
