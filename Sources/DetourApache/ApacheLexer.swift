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
        bytes.withUnsafeBufferPointer { buffer in
            var lines: [Line] = []
            var joined: [UInt8] = []
            var start = 0
            var number = 1
            var joinedStart = 1
            while start < buffer.count {
                var end = start
                while end < buffer.count, buffer[end] != UInt8(ascii: "\n") { end += 1 }
                let next = end + 1
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let continues = end > start && buffer[end - 1] == UInt8(ascii: "\\")
                if continues, next < buffer.count {
                    if joined.isEmpty { joinedStart = number }
                    joined.append(contentsOf: buffer[start..<(end - 1)])
                } else {
                    let last = continues ? end - 1 : end
                    if joined.isEmpty {
                        // The common case: one physical line, read where it lies.
                        if let line = line(UnsafeBufferPointer(rebasing: buffer[start..<last]), number: number) { lines.append(line) }
                    } else {
                        joined.append(contentsOf: buffer[start..<last])
                        if let line = joined.withUnsafeBufferPointer({ line($0, number: joinedStart) }) { lines.append(line) }
                        joined.removeAll(keepingCapacity: true)
                    }
                }
                start = next
                number += 1
            }
            return lines
        }
    }

    private func line(_ bytes: UnsafeBufferPointer<UInt8>, number: Int) -> Line? {
        var index = 0
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        guard index < bytes.count, bytes[index] != UInt8(ascii: "#") else { return nil }
        let column = index + 1
        var words: [String] = []
        var quoted: [UInt8] = []
        while index < bytes.count {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
            guard index < bytes.count else { break }
            let quote = bytes[index]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                quoted.removeAll(keepingCapacity: true)
                index += 1
                while index < bytes.count, bytes[index] != quote {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == quote { index += 1 }
                    quoted.append(bytes[index])
                    index += 1
                }
                index += 1
                words.append(String(decoding: quoted, as: UTF8.self))
            } else {
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: " "), bytes[index] != UInt8(ascii: "\t") { index += 1 }
                words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
            }
        }
        return Line(words: words, location: SourceLocation(path: path, line: number, column: column))
    }
}
