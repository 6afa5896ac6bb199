/// GitHub's strikethrough on libcmark's inlines: runs of one or two `~` open where they are
/// left-flanking and close where they are right-flanking, and a closer takes the nearest opener
/// only when both runs are as long, as cmark-gfm pairs them.
enum Strikethrough {
    private enum Piece {
        case node(MarkdownNode)
        case run(length: Int, line: Int)
    }

    private struct Delimiter {
        var piece: Int
        var length: Int
        var canOpen: Bool
        var canClose: Bool
    }

    /// `children` of one inline container, with their strikethroughs made nodes.
    static func apply(_ children: [MarkdownNode]) -> [MarkdownNode] {
        guard children.contains(where: { if case .text(let text) = $0.kind { return text.utf8.contains(UInt8(ascii: "~")) } else { return false } }) else {
            return children
        }
        var pieces: [Piece] = []
        var delimiters: [Delimiter] = []
        for (index, child) in children.enumerated() {
            guard case .text(let text) = child.kind, text.utf8.contains(UInt8(ascii: "~")) else {
                pieces.append(.node(child))
                continue
            }
            let scalars = Array(text.unicodeScalars)
            var start = 0
            var position = 0
            while position < scalars.count {
                guard scalars[position] == "~" else {
                    position += 1
                    continue
                }
                var end = position
                while end < scalars.count, scalars[end] == "~" { end += 1 }
                if position > start { pieces.append(.node(MarkdownNode(.text(String(String.UnicodeScalarView(scalars[start..<position]))), line: child.line))) }
                let before = position > 0 ? scalars[position - 1] : boundary(children, index - 1, atEnd: true)
                let after = end < scalars.count ? scalars[end] : boundary(children, index + 1, atEnd: false)
                let (left, right) = flanking(before: before, after: after)
                let length = end - position
                if (left || right) && length <= 2 {
                    delimiters.append(Delimiter(piece: pieces.count, length: length, canOpen: left, canClose: right))
                }
                pieces.append(.run(length: length, line: child.line))
                start = end
                position = end
            }
            if start < scalars.count { pieces.append(.node(MarkdownNode(.text(String(String.UnicodeScalarView(scalars[start...]))), line: child.line))) }
        }
        let pairs = pair(delimiters)
        guard !pairs.isEmpty else { return children }
        return build(pieces, pairs: pairs, range: 0..<pieces.count)
    }

    /// Opener piece → closer piece.
    private static func pair(_ delimiters: [Delimiter]) -> [Int: Int] {
        var stack: [Delimiter] = []
        var pairs: [Int: Int] = [:]
        for closer in delimiters {
            if closer.canClose, let openerIndex = stack.lastIndex(where: \.canOpen) {
                if stack[openerIndex].length == closer.length {
                    pairs[stack[openerIndex].piece] = closer.piece
                    stack.removeSubrange(openerIndex...)
                    continue
                }
            } else if closer.canClose && !closer.canOpen {
                continue
            }
            if closer.canOpen { stack.append(closer) }
        }
        return pairs
    }

    private static func build(_ pieces: [Piece], pairs: [Int: Int], range: Range<Int>) -> [MarkdownNode] {
        var nodes: [MarkdownNode] = []
        var index = range.lowerBound
        while index < range.upperBound {
            switch pieces[index] {
            case .node(let node):
                nodes.append(node)
            case .run(let length, let line):
                if let closer = pairs[index], closer < range.upperBound {
                    nodes.append(MarkdownNode(.strikethrough, line: line, children: build(pieces, pairs: pairs, range: index + 1..<closer)))
                    index = closer
                } else {
                    nodes.append(MarkdownNode(.text(String(repeating: "~", count: length)), line: line))
                }
            }
            index += 1
        }
        return nodes
    }

    /// The character next to a run across a node boundary, as the source has it: a line end at
    /// either end of the container, the markup that opens or closes any other inline.
    private static func boundary(_ children: [MarkdownNode], _ index: Int, atEnd: Bool) -> Unicode.Scalar {
        guard children.indices.contains(index) else { return "\n" }
        switch children[index].kind {
        case .text(let text): return (atEnd ? text.unicodeScalars.last : text.unicodeScalars.first) ?? "\n"
        case .softBreak, .lineBreak: return "\n"
        case .code: return "`"
        case .emphasis, .strong: return "*"
        case .link, .image: return atEnd ? ")" : "["
        default: return atEnd ? ">" : "<"
        }
    }

    static func flanking(before: Unicode.Scalar, after: Unicode.Scalar) -> (left: Bool, right: Bool) {
        let left =
            !CharacterClass.isSpace(after)
            && (!CharacterClass.isPunctuation(after) || CharacterClass.isSpace(before) || CharacterClass.isPunctuation(before))
        let right =
            !CharacterClass.isSpace(before)
            && (!CharacterClass.isPunctuation(before) || CharacterClass.isSpace(after) || CharacterClass.isPunctuation(after))
        return (left, right)
    }
}
