import CCMark

/// A paragraph (or setext heading) libcmark parsed that GitHub reads as a table: a header row, a
/// delimiter row with as many cells, then rows until a blank line or a line that starts another
/// block. Text before the header stays a paragraph; lines after the table are parsed again as
/// the blocks they are once no paragraph is open (`2. item`, `---`, an indented code block).
struct TableParagraph {
    struct Line {
        /// The line after its block-quote markers, leading white space removed.
        var text: ArraySlice<UInt8>
        /// Columns of white space before `text`, beyond the paragraph's own indentation.
        var indent: Int
        /// The line lacks some of its block quote's markers (a lazy continuation).
        var isLazy: Bool
        var line: Int
    }

    let parser: MarkdownParser
    let lines: [Line]
    /// A setext heading's last line is its underline, which can only be a row.
    let underlined: Bool

    init?(parser: MarkdownParser, node: OpaquePointer) {
        let span = parser.span(of: node)
        guard span.startLine >= 1, span.endLine <= parser.lines.count, span.endLine > span.startLine else { return nil }
        // Every paragraph comes here: one without a `-` after its first line has no delimiter row.
        guard (span.startLine + 1...span.endLine).contains(where: { parser.lines[$0 - 1].contains(UInt8(ascii: "-")) }) else { return nil }
        self.parser = parser
        underlined = parser.isSetextHeading(node)
        var lines: [Line] = []
        var base = 0
        for number in span.startLine...span.endLine {
            let raw = parser.lines[number - 1]
            if number == span.startLine {
                let start = raw.startIndex + min(max(span.startColumn - 1, 0), raw.count)
                base = span.itemInsideQuote ? Self.widthAfterQuotes(raw[raw.startIndex..<start], depth: span.blockQuoteDepth) : 0
                lines.append(Line(text: raw[start...], indent: 0, isLazy: false, line: parser.originalLine(Int32(number))))
                continue
            }
            // A line indented less than its list item's content is a lazy continuation too.
            let (text, indent, missingQuote) = Self.strip(raw, blockQuotes: span.blockQuoteDepth)
            let isLazy = missingQuote || (indent < base && !text.isEmpty)
            lines.append(Line(text: text, indent: max(indent - base, 0), isLazy: isLazy, line: parser.originalLine(Int32(number))))
        }
        while let last = lines.last, last.text.allSatisfy(TableRowScanner.isSpace) { lines.removeLast() }
        guard lines.count >= 2 else { return nil }
        self.lines = lines
    }

    /// The blocks the lines make, or nil when they hold no table.
    func blocks() -> [MarkdownNode]? {
        let headerCandidates = underlined ? lines.count - 2 : lines.count - 1
        guard headerCandidates >= 1 else { return nil }
        for delimiter in 1...headerCandidates {
            let candidate = lines[delimiter]
            guard !candidate.isLazy, candidate.indent < 4, !TableRowScanner.isSetextUnderline(candidate.text),
                let alignments = TableRowScanner.delimiterRow(candidate.text),
                let header = TableRowScanner.cells(lines[delimiter - 1].text), header.count == alignments.count
            else { continue }
            var rows: [[String]] = []
            var end = delimiter + 1
            while end < lines.count, let row = row(at: end) {
                rows.append(row)
                end += 1
            }
            let before = parser.fragment(lines[..<(delimiter - 1)].map(fragmentLine))
            let after = parser.fragment(lines[end...].map(fragmentLine))
            return before + [table(header: header, alignments: alignments, rows: rows, headerLine: delimiter - 1)] + after
        }
        return nil
    }

    private func row(at index: Int) -> [String]? {
        let line = lines[index]
        if line.isLazy || line.indent >= 4 { return nil }
        guard let cells = TableRowScanner.cells(line.text) else { return nil }
        return parser.startsBlock(String(decoding: line.text, as: UTF8.self)) ? nil : cells
    }

    private func fragmentLine(_ line: Line) -> (text: String, line: Int) {
        (String(repeating: " ", count: line.indent) + String(decoding: line.text, as: UTF8.self), line.line)
    }

    private func table(header: [String], alignments: [MarkdownNode.Alignment], rows: [[String]], headerLine: Int) -> MarkdownNode {
        let bodyStart = headerLine + 2
        var cells: [(text: String, line: Int)] = header.map { ($0, lines[headerLine].line) }
        for (offset, row) in rows.enumerated() {
            // Short rows get empty cells; cells past the header's count are dropped.
            let padded = Array(row.prefix(alignments.count)) + Array(repeating: "", count: max(0, alignments.count - row.count))
            cells += padded.map { ($0, lines[bodyStart + offset].line) }
        }
        var inlines = parser.inlines(ofCells: cells)[...]
        func makeRow(header isHeader: Bool, line: Int) -> MarkdownNode {
            let rowCells = alignments.map { alignment in
                MarkdownNode(.tableCell(header: isHeader, alignment: alignment), line: line, children: inlines.popFirst() ?? [])
            }
            return MarkdownNode(.tableRow(header: isHeader), line: line, children: rowCells)
        }
        var children = [makeRow(header: true, line: lines[headerLine].line)]
        for offset in rows.indices { children.append(makeRow(header: false, line: lines[bodyStart + offset].line)) }
        return MarkdownNode(.table, line: lines[headerLine].line, children: children)
    }

    /// Takes a continuation line's block-quote markers and white space off.
    private static func strip(_ raw: ArraySlice<UInt8>, blockQuotes: Int) -> (ArraySlice<UInt8>, Int, Bool) {
        var text = raw
        var remaining = blockQuotes
        var indent = 0
        while true {
            indent = 0
            while let first = text.first, first == 0x20 || first == 0x09 {
                indent += first == 0x09 ? 4 - indent % 4 : 1
                text = text.dropFirst()
            }
            guard remaining > 0, text.first == UInt8(ascii: ">") else { break }
            text = text.dropFirst()
            remaining -= 1
            // The one optional space after `>` belongs to the marker.
            if text.first == 0x20 { text = text.dropFirst() }
        }
        return (text, indent, remaining > 0)
    }

    /// How wide a paragraph's first line's prefix is once its block-quote markers are off: in a
    /// list item, the content column that continuation lines are measured from.
    private static func widthAfterQuotes(_ prefix: ArraySlice<UInt8>, depth: Int) -> Int {
        var rest = prefix
        for _ in 0..<depth {
            guard let marker = rest.firstIndex(of: UInt8(ascii: ">")) else { break }
            rest = rest[(marker + 1)...]
            if rest.first == 0x20 { rest = rest.dropFirst() }
        }
        return rest.reduce(0) { width, byte in byte == 0x09 ? width + 4 - width % 4 : width + 1 }
    }
}
