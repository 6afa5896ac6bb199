import DetourProxyCore
import Foundation

/// Splits a file into logical lines of words as Apache 2.4 reads them: a `\` at the end of a
/// line joins the next (on the last line it joins nothing); a line whose first word starts
/// with `#` is a comment (elsewhere `#` is an ordinary character); words are separated by
/// blanks; `"…"` and `'…'` group, and a backslash keeps the quote it precedes.
///
/// Words are spans of the file's bytes (`SourceWord`), not strings: a server's configuration
/// can run to tens of thousands of lines. A joined line is copied after the file's bytes, and
/// its words point there.
struct ApacheLexer {
    struct Lines: Sendable {
        var source: SourceBuffer
        /// Each logical line's words, as a range of `source.words`.
        var lines: [Range<Int32>]
        /// By line: whether it holds a `$`, so `${VAR}` may need expanding.
        var hasDollar: [Bool]
    }

    func lines(_ bytes: [UInt8], display: String) -> Lines {
        var found = Found(capacity: bytes.count)
        bytes.withUnsafeBufferPointer { Self.scan($0, into: &found) }
        var source = SourceBuffer(displayPath: display, bytes: found.joinedLines.isEmpty ? bytes : bytes + found.joinedLines)
        source.words = found.words
        return Lines(source: source, lines: found.lines, hasDollar: found.hasDollar)
    }

    /// What the scan collects; one value passed `inout`, so that no closure holds it.
    private struct Found {
        var words: [SourceWord] = []
        var lines: [Range<Int32>] = []
        var hasDollar: [Bool] = []
        /// Joined lines, stored after the file's bytes.
        var joinedLines: [UInt8] = []

        init(capacity bytes: Int) {
            words.reserveCapacity(bytes / 8)
            lines.reserveCapacity(bytes / 32)
            hasDollar.reserveCapacity(bytes / 32)
        }

        mutating func add(_ line: UnsafeBufferPointer<UInt8>, at offset: Int, number: Int32) {
            let first = Int32(words.count)
            ApacheLexer.split(line, at: offset, number: number, into: &words)
            if Int32(words.count) > first {
                lines.append(first..<Int32(words.count))
                hasDollar.append(line.count > 0 && memchr(line.baseAddress!, Int32(UInt8(ascii: "$")), line.count) != nil)
            }
        }
    }

    private static func scan(_ buffer: UnsafeBufferPointer<UInt8>, into found: inout Found) {
        var joined: [UInt8] = []
        var start = 0
        var number: Int32 = 1
        var joinedStart: Int32 = 1
        while start < buffer.count {
            // memchr: the newline search is most of what a lexer does on long files.
            var end = buffer.count
            if let newline = memchr(buffer.baseAddress! + start, Int32(UInt8(ascii: "\n")), buffer.count - start) {
                end = buffer.baseAddress!.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            }
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
                    found.add(UnsafeBufferPointer(rebasing: buffer[start..<last]), at: start, number: number)
                } else {
                    joined.append(contentsOf: buffer[start..<last])
                    let offset = buffer.count + found.joinedLines.count
                    joined.withUnsafeBufferPointer { found.add($0, at: offset, number: joinedStart) }
                    found.joinedLines += joined
                    joined.removeAll(keepingCapacity: true)
                }
            }
            start = next
            number += 1
        }
    }

    /// The words of one logical line, `offset` being where its first byte lies in the store.
    fileprivate static func split(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, number: Int32, into words: inout [SourceWord]) {
        func isBlank(_ index: Int) -> Bool { bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") }
        var index = 0
        while index < bytes.count, isBlank(index) { index += 1 }
        guard index < bytes.count, bytes[index] != UInt8(ascii: "#") else { return }
        while index < bytes.count {
            while index < bytes.count, isBlank(index) { index += 1 }
            guard index < bytes.count else { break }
            let column = Int32(index + 1)
            let quote = bytes[index]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                index += 1
                let start = index
                var hasEscapes = false
                while index < bytes.count, bytes[index] != quote {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == quote {
                        hasEscapes = true
                        index += 1
                    }
                    index += 1
                }
                words.append(
                    SourceWord(start: Int32(offset + start), length: Int32(index - start), line: number, column: column, isQuoted: true, hasEscapes: hasEscapes)
                )
                index += 1
            } else {
                let start = index
                while index < bytes.count, !isBlank(index) { index += 1 }
                words.append(
                    SourceWord(start: Int32(offset + start), length: Int32(index - start), line: number, column: column, isQuoted: false, hasEscapes: false))
            }
        }
    }

    /// A word's value: the quote a backslash keeps stands for itself.
    static func text(_ word: SourceWord, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let span = UnsafeBufferPointer(rebasing: bytes[word.byteRange])
        guard word.hasEscapes else { return String(decoding: span, as: UTF8.self) }
        let quote = bytes[Int(word.start) - 1]
        var value: [UInt8] = []
        var index = 0
        while index < span.count {
            if span[index] == UInt8(ascii: "\\"), index + 1 < span.count, span[index + 1] == quote { index += 1 }
            value.append(span[index])
            index += 1
        }
        return String(decoding: value, as: UTF8.self)
    }
}

extension SourceBuffer {
    /// The values of the words at `range` of `words`, read in place.
    func apacheValues(_ range: Range<Int>) -> [String] {
        words.withUnsafeBufferPointer { words in
            bytes.withUnsafeBufferPointer { bytes in range.map { ApacheLexer.text(words[$0], in: bytes) } }
        }
    }

    func apacheValue(_ word: SourceWord) -> String {
        bytes.withUnsafeBufferPointer { ApacheLexer.text(word, in: $0) }
    }
}
