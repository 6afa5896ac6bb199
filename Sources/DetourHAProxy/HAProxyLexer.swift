import DetourDiagnostics
import DetourSupport
import Foundation

/// Splits a configuration file into lines of words as HAProxy 2.6's parser does: blanks
/// separate words; `#` outside quotes starts a comment; `\` escapes the next character outside
/// single quotes (see `unescape`); `"…"` groups and expands `${VAR}`, `${VAR-default}` and `$VAR` from the environment;
/// `'…'` groups literally. The file must end with a line feed, or HAProxy refuses it.
struct HAProxyLexer {
    let path: String
    let environment: [String: String]

    /// A file is split at line feeds into parts of at least this size, read on all cores.
    static let parallelFrom = 128 * 1024

    /// The lines in parts, in order: joining them would copy every line once more.
    func lines(_ bytes: [UInt8], diagnostics: inout [Diagnostic]) -> [[HAProxyLine]] {
        // Up to four parts a core, so the cores share the work even when one starts late.
        let parts = min(max(bytes.count / Self.parallelFrom, 1), Cores.count * 4)
        // Each part from the line feed at or after its even share, with its first line's number.
        var starts = [0]
        for part in 1..<max(parts, 1) {
            let share = bytes.count * part / parts
            guard share > starts[starts.count - 1], let feed = bytes[share...].firstIndex(of: UInt8(ascii: "\n")) else { continue }
            starts.append(feed + 1)
        }
        let ranges = zip(starts, starts.dropFirst() + [bytes.count]).map { $0..<$1 }
        var firstLines = [1]
        for range in ranges.dropLast() { firstLines.append(firstLines[firstLines.count - 1] + Self.lineFeeds(in: bytes[range])) }
        let read = Array(zip(ranges, firstLines)).concurrentMap { range, first -> ([HAProxyLine], [Diagnostic]) in
            var found: [Diagnostic] = []
            return (lines(bytes[range], firstLine: first, diagnostics: &found), found)
        }
        diagnostics += read.flatMap { $0.1 }
        return read.map(\.0)
    }

    /// How many line feeds `bytes` holds, counted with memchr.
    private static func lineFeeds(in bytes: ArraySlice<UInt8>) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard var at = buffer.baseAddress else { return 0 }
            let end = at + buffer.count
            var count = 0
            while at < end, let found = memchr(at, 0x0A, end - at) {
                count += 1
                at = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) + 1
            }
            return count
        }
    }

    private func lines(_ part: ArraySlice<UInt8>, firstLine: Int, diagnostics: inout [Diagnostic]) -> [HAProxyLine] {
        part.withUnsafeBufferPointer { bytes in
            var lines: [HAProxyLine] = []
            var lineNumber = firstLine
            var start = 0
            var scratch = Scratch()
            while start < bytes.count {
                let first = bytes.baseAddress!
                let end = memchr(first + start, 0x0A, bytes.count - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(first) } ?? bytes.count
                if end == bytes.count {
                    diagnostics.append(
                        .error(
                            HAProxyRules.syntax.id,
                            "the last line has no line feed: HAProxy refuses the file ('Missing LF on last line, file might have been truncated')",
                            at: SourceLocation(path: path, line: lineNumber, column: end - start + 1)))
                }
                if let line = line(UnsafeBufferPointer(rebasing: bytes[start..<end]), number: lineNumber, scratch: &scratch, diagnostics: &diagnostics) {
                    lines.append(line)
                }
                start = end + 1
                lineNumber += 1
            }
            return lines
        }
    }

    /// What a line is gathered in: its words, in an array handed over with the line, and the
    /// word being read, in a buffer reused line after line.
    struct Scratch {
        var words: [HAProxyWord] = []
        /// The word being read, unquoted and unescaped, when it is not a plain run.
        var unquoted: [UInt8] = []

        init() {
            unquoted.reserveCapacity(256)
        }

        /// The word gathered in `unquoted`, if one started at `start`, appended to `words`. A
        /// method, not a closure in `line`: a closure's captured variables would be checked for
        /// exclusive access on every byte.
        mutating func finishWord(_ start: inout Int?) {
            guard let begin = start else { return }
            words.append(HAProxyWord(text: String(decoding: unquoted, as: UTF8.self), column: Int32(begin + 1)))
            if !unquoted.isEmpty { unquoted.removeAll(keepingCapacity: true) }
            start = nil
        }
    }

    /// A byte that neither ends a word nor starts a quote, an escape or a comment: every byte
    /// of a file is asked, so the bytes below 64 that are not are bits of one mask.
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 64 ? byte != UInt8(ascii: "\\") : notPlainBelow64 >> byte & 1 == 0
    }
    /// Blank, tab, carriage return, `#`, `"` and `'`; a constant the compiler folds, not a
    /// global each byte would check is set.
    private static var notPlainBelow64: UInt64 { 1 << 32 | 1 << 9 | 1 << 13 | 1 << 35 | 1 << 34 | 1 << 39 }

    /// A blank, or the `#` of a comment.
    private static func endsWord(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "#")
    }

    /// `plainRuns`: whether a word of plain bytes is taken whole, as it is but for the tests,
    /// which compare it with the byte-by-byte reading.
    func line(_ bytes: UnsafeBufferPointer<UInt8>, number: Int, scratch: inout Scratch, diagnostics: inout [Diagnostic], plainRuns: Bool = true)
        -> HAProxyLine?
    {
        // The line's own array, sized once for at most as many words as the line has runs of
        // bytes after blanks, and handed over whole at the end: no copy, no second allocation.
        scratch.words = []
        scratch.words.reserveCapacity(Self.wordsAtMost(bytes))
        scratch.unquoted.removeAll(keepingCapacity: true)
        var wordStart: Int?
        var quote: UInt8?
        var quoteColumn = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if quote == UInt8(ascii: "'") {
                if byte == UInt8(ascii: "'") { quote = nil } else { scratch.unquoted.append(byte) }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\\"), quote != UInt8(ascii: "'") {
                if wordStart == nil { wordStart = index }
                index = unescape(bytes, at: index, inDoubleQuotes: quote != nil, into: &scratch.unquoted)
                continue
            }
            if quote == UInt8(ascii: "\"") {
                if byte == UInt8(ascii: "\"") {
                    quote = nil
                    index += 1
                } else if byte == UInt8(ascii: "$"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") {
                    index = expand(bytes, at: index, into: &scratch.unquoted)
                } else if byte == UInt8(ascii: "$"), index + 1 < bytes.count, Self.startsName(bytes[index + 1]) {
                    index = expandName(bytes, at: index, into: &scratch.unquoted)
                } else {
                    scratch.unquoted.append(byte)
                    index += 1
                }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                scratch.finishWord(&wordStart)
            case UInt8(ascii: "#"):
                scratch.finishWord(&wordStart)
                index = bytes.count
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                if wordStart == nil { wordStart = index }
                quote = byte
                quoteColumn = index + 1
            default:
                if wordStart == nil { wordStart = index }
                guard plainRuns else {
                    scratch.unquoted.append(byte)
                    break
                }
                // Most words are plain: the run is taken at once, and whole when it ends the word.
                var end = index + 1
                while end < bytes.count, Self.isPlain(bytes[end]) { end += 1 }
                let run = UnsafeBufferPointer(rebasing: bytes[index..<end])
                if scratch.unquoted.isEmpty, end == bytes.count || Self.endsWord(bytes[end]) {
                    scratch.words.append(HAProxyWord(text: String(decoding: run, as: UTF8.self), column: Int32(wordStart! + 1)))
                    wordStart = nil
                } else {
                    scratch.unquoted.append(contentsOf: run)
                }
                index = end
                continue
            }
            index += 1
        }
        if quote != nil {
            diagnostics.append(
                .error(
                    HAProxyRules.syntax.id,
                    "unmatched quote: the \(quote == UInt8(ascii: "'") ? "single" : "double") quote opened here is not closed on this line, and HAProxy refuses the line",
                    at: SourceLocation(path: path, line: number, column: quoteColumn)))
            return nil
        }
        scratch.finishWord(&wordStart)
        guard !scratch.words.isEmpty else { return nil }
        let words = scratch.words
        scratch.words = []
        return HAProxyLine(words: words, path: path, number: number)
    }

    /// How many runs of bytes follow a blank or the line's start: no line has more words
    /// (quotes and escapes only join runs, and a comment's runs count too).
    private static func wordsAtMost(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var runs = 0
        var afterBlank = true
        for byte in bytes {
            // Blank, tab or carriage return, as one mask.
            let blank = byte <= 32 && (1 << 32 | 1 << 9 | 1 << 13 as UInt64) >> byte & 1 == 1
            if afterBlank, !blank { runs += 1 }
            afterBlank = blank
        }
        return runs
    }

    /// The escape at `index` (a backslash): `\ `, `\#`, `\\`, `\'`, `\"`, `\t`, `\n`, `\r`,
    /// `\xHH`, and `\$` inside double quotes; any other backslash stays, as HAProxy keeps it.
    /// The index after it.
    private func unescape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, inDoubleQuotes: Bool, into current: inout [UInt8]) -> Int {
        guard index + 1 < bytes.count else {
            current.append(UInt8(ascii: "\\"))
            return index + 1
        }
        let next = bytes[index + 1]
        switch next {
        case UInt8(ascii: " "), UInt8(ascii: "#"), UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""):
            current.append(next)
        case UInt8(ascii: "$") where inDoubleQuotes:
            current.append(next)
        case UInt8(ascii: "t"): current.append(UInt8(ascii: "\t"))
        case UInt8(ascii: "n"): current.append(UInt8(ascii: "\n"))
        case UInt8(ascii: "r"): current.append(UInt8(ascii: "\r"))
        case UInt8(ascii: "x") where index + 3 < bytes.count:
            if let value = UInt8(String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 2)...(index + 3)]), as: UTF8.self), radix: 16) {
                current.append(value)
                return index + 4
            }
            current.append(contentsOf: [UInt8(ascii: "\\"), next])
        default:
            current.append(contentsOf: [UInt8(ascii: "\\"), next])
        }
        return index + 2
    }

    /// `$NAME` at `index` (a letter or `_`, then letters, digits and `_`): its value, empty when
    /// it is not set, appended; the index after the name.
    private func expandName(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, into current: inout [UInt8]) -> Int {
        var end = index + 1
        while end < bytes.count, Self.startsName(bytes[end]) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end]), as: UTF8.self)
        current.append(contentsOf: (environment[name] ?? "").utf8)
        return end
    }

    private static func startsName(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
    }

    /// `${NAME}` or `${NAME-default}` at `index`: its value appended; the index after `}`.
    private func expand(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, into current: inout [UInt8]) -> Int {
        guard let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "}")) else {
            current.append(contentsOf: bytes[index...])
            return bytes.count
        }
        let inside = String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 2)..<close]), as: UTF8.self)
        let parts = inside.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let value = environment[String(parts[0])] ?? (parts.count == 2 ? String(parts[1]) : "")
        current.append(contentsOf: value.utf8)
        return close + 1
    }
}
