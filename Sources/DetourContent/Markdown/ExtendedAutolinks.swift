/// GitHub's extended autolinks in text: `www.` names, `http://`, `https://` and `ftp://` URLs and
/// e-mail addresses become links without `<…>`, with trailing punctuation and unbalanced `)` left
/// out, as cmark-gfm's autolink extension finds them.
enum ExtendedAutolinks {
    /// `children` of one inline container with autolinks made nodes (none where `linking` is
    /// false: inside a link). `brackets` counts the `[` and `![` left as text and still open, in
    /// document order: cmark-gfm makes no URL or `www.` link inside one (`[see https://x]`).
    /// `visit` is called on every other child where it stands, so nested containers go on counting.
    static func apply(
        _ children: [MarkdownNode], linking: Bool, smart: Bool, brackets: inout Int, visit: (inout MarkdownNode, inout Int) -> Void
    ) -> [MarkdownNode] {
        var result: [MarkdownNode] = []
        var run: [MarkdownNode] = []
        func flush() {
            guard !run.isEmpty else { return }
            let text = run.map { if case .text(let literal) = $0.kind { literal } else { "" } }.joined()
            let depth = brackets
            brackets = text.unicodeScalars.reduce(depth) { bracketDepth(after: $1, from: $0) }
            if linking {
                let before = result.last.map(allowsWWWAfter) ?? true
                result += link(text, line: run[0].line, wwwAllowedAtStart: before, bracketDepth: depth, smart: smart)
            } else {
                result += run
            }
            run = []
        }
        for var child in children {
            if case .text = child.kind {
                run.append(child)
            } else {
                flush()
                visit(&child, &brackets)
                result.append(child)
            }
        }
        flush()
        return result
    }

    /// What comes before `www.` in the source when the text run starts after this node.
    private static func allowsWWWAfter(_ node: MarkdownNode) -> Bool {
        switch node.kind {
        case .emphasis, .strong, .strikethrough, .softBreak, .lineBreak: return true
        default: return false
        }
    }

    /// libcmark leaves a `[` no link closes as text; the next `]` closes it all the same.
    private static func bracketDepth(after character: Unicode.Scalar, from depth: Int) -> Int {
        switch character {
        case "[": return depth + 1
        case "]": return max(0, depth - 1)
        default: return depth
        }
    }

    /// `smart`: libcmark made the text's quotes and dashes curly, which a URL is read without.
    private static func link(_ text: String, line: Int, wwwAllowedAtStart: Bool, bracketDepth startDepth: Int, smart: Bool) -> [MarkdownNode] {
        guard mayHoldLink(text) else { return [MarkdownNode(.text(text), line: line)] }
        let written = SmartPunctuation(text, undo: smart)
        let scalars = written.plain
        // The brackets open before each character.
        var depths: [Int] = []
        depths.reserveCapacity(scalars.count)
        var depth = startDepth
        for character in scalars {
            depths.append(depth)
            depth = bracketDepth(after: character, from: depth)
        }
        let bracketed = { (index: Int) in depths[index] > 0 }
        var nodes: [MarkdownNode] = []
        var plainStart = 0
        var index = 0
        func emit(_ range: Range<Int>, url: String) {
            if range.lowerBound > plainStart { nodes += emails(written.shown(plainStart..<range.lowerBound), line: line) }
            let shown = string(scalars[range])
            nodes.append(MarkdownNode(.link(url: url, title: ""), line: line, children: [MarkdownNode(.text(shown), line: line)]))
            plainStart = range.upperBound
            index = range.upperBound
        }
        while index < scalars.count {
            let character = scalars[index]
            let wwwAllowed = index == 0 ? wwwAllowedAtStart : wwwPrecededWell(scalars, index)
            if character == "w", wwwAllowed, !bracketed(index), let end = www(scalars, at: index) {
                emit(index..<end, url: "http://" + string(scalars[index..<end]))
                continue
            }
            if character == ":", !bracketed(index), let (start, end) = url(scalars, colon: index, earliest: plainStart) {
                emit(start..<end, url: string(scalars[start..<end]))
                continue
            }
            index += 1
        }
        if plainStart < scalars.count { nodes += emails(written.shown(plainStart..<scalars.count), line: line) }
        return nodes
    }

    /// Whether `text` holds `www.`, `://` or `@`, without which nothing in it is a link: most
    /// text is let through after one pass over its bytes.
    private static func mayHoldLink(_ text: String) -> Bool {
        var previous: (UInt8, UInt8, UInt8) = (0, 0, 0)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "@"): return true
            case UInt8(ascii: "/") where previous.1 == UInt8(ascii: ":") && previous.2 == UInt8(ascii: "/"): return true
            case UInt8(ascii: ".") where previous == (UInt8(ascii: "w"), UInt8(ascii: "w"), UInt8(ascii: "w")): return true
            default: break
            }
            previous = (previous.1, previous.2, byte)
        }
        return false
    }

    private static func wwwPrecededWell(_ scalars: [Unicode.Scalar], _ index: Int) -> Bool {
        let before = scalars[index - 1]
        return "*_~(".unicodeScalars.contains(before) || CharacterClass.isASCIISpace(before)
    }

    private static func www(_ scalars: [Unicode.Scalar], at start: Int) -> Int? {
        let data = Array(scalars[start...])
        guard data.count >= 4, string(data[0..<4]) == "www." else { return nil }
        guard let domain = domainLength(data, allowShort: false) else { return nil }
        let end = delimit(data, pathEnd(data, from: domain))
        return end > 0 ? start + end : nil
    }

    private static func url(_ scalars: [Unicode.Scalar], colon: Int, earliest: Int) -> (Int, Int)? {
        guard colon + 2 < scalars.count, scalars[colon + 1] == "/", scalars[colon + 2] == "/" else { return nil }
        var start = colon
        while start > earliest, CharacterClass.isASCIILetter(scalars[start - 1]) { start -= 1 }
        let scheme = string(scalars[start..<colon]).lowercased()
        guard ["http", "https", "ftp"].contains(scheme), colon + 3 < scalars.count, CharacterClass.isHostCharacter(scalars[colon + 3]) else { return nil }
        let data = Array(scalars[colon...])
        guard let domain = domainLength(Array(data[3...]), allowShort: true) else { return nil }
        let end = delimit(data, pathEnd(data, from: 3 + domain))
        return end > 0 ? (start, colon + end) : nil
    }

    /// How far a domain goes from the start of `data`; nil when it is none (an `_` in its last
    /// two labels, or no dot where one is needed).
    private static func domainLength(_ data: [Unicode.Scalar], allowShort: Bool) -> Int? {
        var index = 1
        var periods = 0
        var underscoresBefore = 0
        var underscores = 0
        while index < data.count - 1 {
            let character = data[index]
            if character == "_" {
                underscores += 1
            } else if character == "." {
                underscoresBefore = underscores
                underscores = 0
                periods += 1
            } else if !CharacterClass.isHostCharacter(character) && character != "-" {
                break
            }
            index += 1
        }
        if underscoresBefore > 0 || underscores > 0 { return nil }
        if allowShort { return index > 0 ? index : nil }
        return periods > 0 ? index : nil
    }

    private static func pathEnd(_ data: [Unicode.Scalar], from start: Int) -> Int {
        var end = start
        while end < data.count, !CharacterClass.isASCIISpace(data[end]) { end += 1 }
        return end
    }

    /// Drops what GitHub does not count as part of a link at its end.
    private static func delimit(_ data: [Unicode.Scalar], _ length: Int) -> Int {
        var end = data[..<length].firstIndex(of: "<") ?? length
        while end > 0 {
            let last = data[end - 1]
            if "?!.,:*_~'\"".unicodeScalars.contains(last) {
                end -= 1
            } else if last == ";" {
                var entityStart = end - 2
                while entityStart > 0, CharacterClass.isASCIILetter(data[entityStart]) { entityStart -= 1 }
                end = entityStart < end - 2 && data[entityStart] == "&" ? entityStart : end - 1
            } else if last == ")" {
                let opening = data[..<end].filter { $0 == "(" }.count
                let closing = data[..<end].filter { $0 == ")" }.count
                if closing <= opening { break }
                end -= 1
            } else {
                break
            }
        }
        return end
    }

    /// E-mail addresses in text that holds no other autolink.
    private static func emails(_ text: String, line: Int) -> [MarkdownNode] {
        let scalars = Array(text.unicodeScalars)
        var nodes: [MarkdownNode] = []
        var plainStart = 0
        var searchFrom = 0
        while let at = scalars[searchFrom...].firstIndex(of: "@") {
            var start = at
            var slashed = false
            while start > plainStart {
                let character = scalars[start - 1]
                if CharacterClass.isASCIIAlphanumeric(character) || ".+-_".unicodeScalars.contains(character) {
                    start -= 1
                    continue
                }
                slashed = character == "/"
                break
            }
            searchFrom = at + 1
            guard start < at, !slashed else { continue }
            var end = at
            var ats = 0
            var periods = 0
            while end < scalars.count {
                let character = scalars[end]
                if CharacterClass.isASCIIAlphanumeric(character) {
                } else if character == "@" {
                    ats += 1
                } else if character == ".", end + 1 < scalars.count, CharacterClass.isASCIIAlphanumeric(scalars[end + 1]) {
                    periods += 1
                } else if character != "-" && character != "_" {
                    break
                }
                end += 1
            }
            let tail = Array(scalars[at..<end])
            guard end - at >= 2, ats == 1, periods > 0, CharacterClass.isASCIILetter(scalars[end - 1]) || scalars[end - 1] == "." else { continue }
            let length = delimit(tail, tail.count)
            guard length > 0 else { continue }
            let linkEnd = at + length
            if start > plainStart { nodes.append(MarkdownNode(.text(string(scalars[plainStart..<start])), line: line)) }
            let address = string(scalars[start..<linkEnd])
            nodes.append(MarkdownNode(.link(url: "mailto:" + address, title: ""), line: line, children: [MarkdownNode(.text(address), line: line)]))
            plainStart = linkEnd
            searchFrom = linkEnd
        }
        if plainStart < scalars.count || nodes.isEmpty { nodes.append(MarkdownNode(.text(string(scalars[plainStart...])), line: line)) }
        return nodes
    }

    private static func string<C: Collection>(_ scalars: C) -> String where C.Element == Unicode.Scalar {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }
}
