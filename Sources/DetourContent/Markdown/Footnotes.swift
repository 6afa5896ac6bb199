/// Turns `[^label]` in text into references to the document's footnote definitions, numbered in
/// the order they are first referenced, and appends the footnotes a reference names as one
/// `.footnotes` block, as cmark-gfm's footnotes extension does. A label no definition has stays text.
struct Footnotes {
    /// The definitions' bodies, parsed, by label as a reference matches it (case aside).
    private var bodies: [String: (label: String, blocks: [MarkdownNode])] = [:]
    private var order: [String] = []
    private var references: [String: Int] = [:]
    private let smart: Bool

    private init(smart: Bool) {
        self.smart = smart
    }

    /// `smart`: libcmark made the text's quotes curly, which a label in the text is matched without.
    static func apply(to root: inout MarkdownNode, definitions: [(label: String, blocks: [MarkdownNode])], smart: Bool) {
        guard !definitions.isEmpty else { return }
        var footnotes = Footnotes(smart: smart)
        var definitionOrder: [String] = []
        for definition in definitions where footnotes.bodies[definition.label.lowercased()] == nil {
            footnotes.bodies[definition.label.lowercased()] = definition
            definitionOrder.append(definition.label.lowercased())
        }
        footnotes.resolve(&root)
        // Definitions are read after the text, as cmark-gfm meets them at the end of most documents.
        for key in definitionOrder {
            var body = MarkdownNode(.document, line: 0, children: footnotes.bodies[key]!.blocks)
            footnotes.resolve(&body)
            footnotes.bodies[key]!.blocks = body.children
        }
        guard !footnotes.order.isEmpty else { return }
        let items = footnotes.order.map { key in
            let (label, blocks) = footnotes.bodies[key]!
            return MarkdownNode(.footnoteDefinition(label: label, references: footnotes.references[key]!), line: blocks.first?.line ?? 0, children: blocks)
        }
        root.children.append(MarkdownNode(.footnotes, line: items[0].line, children: items))
    }

    private mutating func resolve(_ node: inout MarkdownNode) {
        switch node.kind {
        case .link, .image, .code, .codeBlock, .htmlBlock: return
        case .paragraph, .heading, .tableCell, .emphasis, .strong: node.children = referenced(node.children, line: node.line)
        default: break
        }
        for index in node.children.indices { resolve(&node.children[index]) }
    }

    /// The inlines with each run of text that names a defined footnote split around its references.
    private mutating func referenced(_ children: [MarkdownNode], line: Int) -> [MarkdownNode] {
        guard children.contains(where: { if case .text(let text) = $0.kind { text.contains("[^") } else { false } }) else { return children }
        var result: [MarkdownNode] = []
        var run: [MarkdownNode] = []
        func flush() {
            guard !run.isEmpty else { return }
            let text = run.map { if case .text(let literal) = $0.kind { literal } else { "" } }.joined()
            let split = split(text, line: line)
            // Text that names no footnote keeps its nodes as they were.
            let references = split.contains { if case .footnoteReference = $0.kind { true } else { false } }
            result += references ? split : run
            run = []
        }
        for child in children {
            if case .text = child.kind {
                run.append(child)
            } else {
                flush()
                result.append(child)
            }
        }
        flush()
        return result
    }

    /// A label as definitions are looked up by: case aside, and as written before smart punctuation.
    private func key(_ label: Substring) -> String {
        guard smart else { return label.lowercased() }
        var plain = ""
        plain.unicodeScalars.append(contentsOf: SmartPunctuation(String(label), undo: true).plain)
        return plain.lowercased()
    }

    private mutating func split(_ text: String, line: Int) -> [MarkdownNode] {
        var nodes: [MarkdownNode] = []
        var rest = Substring(text)
        while let open = rest.range(of: "[^") {
            let label = rest[open.upperBound...].prefix { $0 != "]" && !$0.isWhitespace }
            let close = rest.index(open.upperBound, offsetBy: label.count)
            let key = key(label)
            guard close < rest.endIndex, rest[close] == "]", !label.isEmpty, let body = bodies[key] else {
                nodes.append(MarkdownNode(.text(String(rest[..<open.upperBound])), line: line))
                rest = rest[open.upperBound...]
                continue
            }
            if rest.startIndex < open.lowerBound { nodes.append(MarkdownNode(.text(String(rest[..<open.lowerBound])), line: line)) }
            if references[key] == nil { order.append(key) }
            references[key, default: 0] += 1
            let number = order.firstIndex(of: key)! + 1
            nodes.append(MarkdownNode(.footnoteReference(label: body.label, number: number, occurrence: references[key]!), line: line))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { nodes.append(MarkdownNode(.text(String(rest)), line: line)) }
        // Adjacent text is one node again, as the extensions after this one expect.
        return nodes.reduce(into: []) { merged, node in
            if case .text(let next) = node.kind, let last = merged.last, case .text(let previous) = last.kind {
                merged[merged.count - 1].kind = .text(previous + next)
            } else {
                merged.append(node)
            }
        }
    }
}
