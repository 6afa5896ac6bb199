/// GitHub's table rows, scanned byte by byte as cmark-gfm's table extension scans them: cells split
/// at pipes that are not escaped (in code spans too), `\|` unescaped, each cell trimmed.
enum TableRowScanner {
    /// The cells of one line (no line ending); nil when the line is no row. A lone `|` has none.
    static func cells(_ line: ArraySlice<UInt8>) -> [String]? {
        let bytes = Array(line)
        var offset = cellEnd(bytes, at: 0)
        var cells: [String] = []
        var expectMore = true
        while offset < bytes.count && expectMore {
            let cell = cellLength(bytes, at: offset)
            let pipe = cellEnd(bytes, at: offset + cell)
            if cell > 0 || pipe > 0 { cells.append(cellText(bytes[offset..<offset + cell])) }
            offset += cell + pipe
            expectMore = pipe > 0
        }
        return offset == bytes.count && !cells.isEmpty ? cells : nil
    }

    /// The alignments of a delimiter row (`| :-- | --: |`); nil when the line is none.
    static func delimiterRow(_ line: ArraySlice<UInt8>) -> [MarkdownNode.Alignment]? {
        let bytes = Array(line)
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "|") { index += 1 }
        guard marker(bytes, &index) else { return nil }
        while true {
            var next = index
            while next < bytes.count, isSpace(bytes[next]) { next += 1 }
            if next == bytes.count { break }
            guard bytes[next] == UInt8(ascii: "|") else { return nil }
            next += 1
            var afterMarker = next
            if marker(bytes, &afterMarker) {
                index = afterMarker
                continue
            }
            while next < bytes.count, isSpace(bytes[next]) { next += 1 }
            guard next == bytes.count else { return nil }
            break
        }
        return cells(line)?.map { cell in
            switch (cell.hasPrefix(":"), cell.hasSuffix(":")) {
            case (true, true): return .center
            case (true, false): return .left
            case (false, true): return .right
            case (false, false): return MarkdownNode.Alignment.none
            }
        }
    }

    /// `spacechar* :? -+ :? spacechar*`
    private static func marker(_ bytes: [UInt8], _ index: inout Int) -> Bool {
        var position = index
        while position < bytes.count, isSpace(bytes[position]) { position += 1 }
        if position < bytes.count, bytes[position] == UInt8(ascii: ":") { position += 1 }
        let dashes = position
        while position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position > dashes else { return false }
        if position < bytes.count, bytes[position] == UInt8(ascii: ":") { position += 1 }
        while position < bytes.count, isSpace(bytes[position]) { position += 1 }
        index = position
        return true
    }

    /// `|` and the spaces after it, or nothing.
    private static func cellEnd(_ bytes: [UInt8], at start: Int) -> Int {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "|") else { return 0 }
        var end = start + 1
        while end < bytes.count, isSpace(bytes[end]) { end += 1 }
        return end - start
    }

    /// Escaped punctuation or any byte but a pipe, as far as it goes.
    private static func cellLength(_ bytes: [UInt8], at start: Int) -> Int {
        var index = start
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count, isASCIIPunctuation(bytes[index + 1]) {
                index += 2
            } else if bytes[index] == UInt8(ascii: "|") || bytes[index] == 0x0A || bytes[index] == 0x0D {
                break
            } else {
                index += 1
            }
        }
        return index - start
    }

    private static func cellText(_ raw: ArraySlice<UInt8>) -> String {
        var unescaped: [UInt8] = []
        unescaped.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            if raw[index] == UInt8(ascii: "\\"), index + 1 < raw.endIndex, raw[index + 1] == UInt8(ascii: "|") { index += 1 }
            unescaped.append(raw[index])
            index += 1
        }
        let isTrimmed = { (byte: UInt8) in byte == 0x20 || (0x09...0x0D).contains(byte) }
        let start = unescaped.firstIndex { !isTrimmed($0) } ?? unescaped.endIndex
        let end = (unescaped.lastIndex { !isTrimmed($0) }).map { $0 + 1 } ?? start
        return String(decoding: unescaped[start..<max(start, end)], as: UTF8.self)
    }

    /// A line of hyphens alone (`-----`): a setext heading's underline, which cmark-gfm reads as
    /// that before it tries a table, so it never is a one-column delimiter row.
    static func isSetextUnderline(_ line: ArraySlice<UInt8>) -> Bool {
        let text = line.drop(while: isSpace)
        guard text.first == UInt8(ascii: "-") else { return false }
        return text.drop { $0 == UInt8(ascii: "-") }.allSatisfy(isSpace)
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C }

    static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }
}
