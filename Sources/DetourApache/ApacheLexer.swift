import DetourDiagnostics

/// Splits a file into logical lines of words as Apache 2.4 reads them: a `\` at the end of a
/// line joins the next (on the last line it joins nothing); a line whose first word starts
/// with `#` is a comment (elsewhere `#` is an ordinary character); words are separated by
/// blanks; `"…"` and `'…'` group, and a backslash keeps the quote it precedes. Bytes, not
/// characters: a server's configuration can run to tens of thousands of lines.
struct ApacheLexer {
    struct Line {
        var words: [String]
        var location: SourceLocation
    }

    let path: String

    func lines(_ bytes: [UInt8]) -> [Line] {
        var lines: [Line] = []
        var logical: [UInt8] = []
        var start = 0
        var number = 1
        var logicalStart = 1
        while start < bytes.count {
            var end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let next = end + 1
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            if logical.isEmpty { logicalStart = number }
            if end > start, bytes[end - 1] == UInt8(ascii: "\\"), next < bytes.count {
                logical.append(contentsOf: bytes[start..<(end - 1)])
            } else {
                let last = end > start && bytes[end - 1] == UInt8(ascii: "\\") ? end - 1 : end
                logical.append(contentsOf: bytes[start..<last])
                if let line = line(logical, number: logicalStart) { lines.append(line) }
                logical.removeAll(keepingCapacity: true)
            }
            start = next
            number += 1
        }
        return lines
    }

    private func line(_ bytes: [UInt8], number: Int) -> Line? {
        var index = 0
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        guard index < bytes.count, bytes[index] != UInt8(ascii: "#") else { return nil }
        let column = index + 1
        var words: [String] = []
        var word: [UInt8] = []
        while index < bytes.count {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
            guard index < bytes.count else { break }
            word.removeAll(keepingCapacity: true)
            let quote = bytes[index]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                index += 1
                while index < bytes.count, bytes[index] != quote {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == quote { index += 1 }
                    word.append(bytes[index])
                    index += 1
                }
                index += 1
            } else {
                while index < bytes.count, bytes[index] != UInt8(ascii: " "), bytes[index] != UInt8(ascii: "\t") {
                    word.append(bytes[index])
                    index += 1
                }
            }
            words.append(String(decoding: word, as: UTF8.self))
        }
        return Line(words: words, location: SourceLocation(path: path, line: number, column: column))
    }
}
