/// GFM footnote definitions (`[^label]: text`, continued by lines indented four columns and by a
/// paragraph's lazy lines) taken out of a document's lines before libcmark reads them: libcmark
/// knows no footnotes and would read the first line as a link reference definition. Each line
/// taken is left blank, so every other block keeps its line.
struct FootnoteDefinitions {
    struct Definition {
        /// As the definition writes it: what the ids show (`fn-<label>`).
        var label: String
        /// The body's lines, unindented, each with the document's line it came from.
        var lines: [(text: String, line: Int)]
    }

    private(set) var lines: [ArraySlice<UInt8>]
    private(set) var definitions: [Definition] = []

    /// `startsBlock` tells whether a line would start a block other than a paragraph, which ends
    /// a definition's lazy continuation.
    init(lines: [ArraySlice<UInt8>], startsBlock: (String) -> Bool) {
        self.lines = lines
        guard lines.contains(where: Self.mayHoldDefinition) else { return }
        var fence: (marker: UInt8, length: Int)?
        var index = 0
        while index < lines.count {
            let line = String(decoding: lines[index], as: UTF8.self)
            if let open = fence {
                if Self.closesFence(line, open) { fence = nil }
                index += 1
                continue
            }
            if let open = Self.opensFence(line) {
                fence = open
                index += 1
                continue
            }
            // In a block quote, the definition and its lines are read after the quote's markers.
            let quote = Self.quoteMarkers(line)
            guard let (label, first) = Self.definitionStart(String(line.dropFirst(quote.prefix.count))) else {
                index += 1
                continue
            }
            var body = [(text: first, line: index + 1)]
            var end = index + 1
            var blanks: [Int] = []
            var lazyAllowed = !first.isEmpty
            while end < lines.count {
                let whole = String(decoding: lines[end], as: UTF8.self)
                let markers = Self.quoteMarkers(whole)
                guard markers.depth == quote.depth else { break }
                let next = String(whole.dropFirst(markers.prefix.count))
                if next.allSatisfy({ $0 == " " || $0 == "\t" }) {
                    blanks.append(end)
                    lazyAllowed = false
                } else if let unindented = Self.unindented(next) {
                    body += blanks.map { (text: "", line: $0 + 1) } + [(text: unindented, line: end + 1)]
                    blanks = []
                    lazyAllowed = true
                } else if lazyAllowed, Self.definitionStart(next) == nil, !startsBlock(next) {
                    body.append((text: next, line: end + 1))
                } else {
                    break
                }
                end += 1
            }
            let taken = end - blanks.count
            for blanked in index..<taken { self.lines[blanked] = ArraySlice(Self.quoteMarkers(String(decoding: lines[blanked], as: UTF8.self)).prefix.utf8) }
            definitions.append(Definition(label: label, lines: body))
            index = taken
        }
    }

    private static func mayHoldDefinition(_ line: ArraySlice<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in line {
            if previous == UInt8(ascii: "["), byte == UInt8(ascii: "^") { return true }
            previous = byte
        }
        return false
    }

    /// The block-quote markers a line starts with (`> > `), and how many.
    static func quoteMarkers(_ line: String) -> (prefix: Substring, depth: Int) {
        var end = line.startIndex
        var depth = 0
        while true {
            var cursor = end
            var spaces = 0
            while cursor < line.endIndex, line[cursor] == " ", spaces < 3 {
                cursor = line.index(after: cursor)
                spaces += 1
            }
            guard cursor < line.endIndex, line[cursor] == ">" else { break }
            cursor = line.index(after: cursor)
            if cursor < line.endIndex, line[cursor] == " " { cursor = line.index(after: cursor) }
            end = cursor
            depth += 1
        }
        return (line[..<end], depth)
    }

    /// `[^label]:` after at most three spaces: the label (no white space, no `]`) and the text after.
    static func definitionStart(_ line: String) -> (label: String, text: String)? {
        let indent = line.prefix { $0 == " " }.count
        guard indent <= 3 else { return nil }
        let rest = line.dropFirst(indent)
        guard rest.hasPrefix("[^") else { return nil }
        let label = rest.dropFirst(2).prefix { $0 != "]" && !$0.isWhitespace }
        let after = rest.dropFirst(2 + label.count)
        guard !label.isEmpty, after.hasPrefix("]:") else { return nil }
        return (String(label), String(after.dropFirst(2).drop { $0 == " " || $0 == "\t" }))
    }

    /// The line less four columns of indentation, or nil when it has fewer.
    private static func unindented(_ line: String) -> String? {
        var column = 0
        var index = line.startIndex
        while column < 4, index < line.endIndex {
            switch line[index] {
            case " ": column += 1
            case "\t": column += 4 - column % 4
            default: return nil
            }
            index = line.index(after: index)
        }
        guard column >= 4 else { return nil }
        return String(repeating: " ", count: column - 4) + line[index...]
    }

    private static func opensFence(_ line: String) -> (marker: UInt8, length: Int)? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }.utf8
        guard let marker = trimmed.first, marker == UInt8(ascii: "`") || marker == UInt8(ascii: "~") else { return nil }
        let length = trimmed.prefix { $0 == marker }.count
        guard length >= 3 else { return nil }
        // A backtick fence's info string holds no backtick.
        if marker == UInt8(ascii: "`"), trimmed.dropFirst(length).contains(marker) { return nil }
        return (marker, length)
    }

    private static func closesFence(_ line: String, _ fence: (marker: UInt8, length: Int)) -> Bool {
        let trimmed = line.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let length = trimmed.prefix { $0 == fence.marker }.count
        return length >= fence.length && trimmed.dropFirst(length).allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }
}
