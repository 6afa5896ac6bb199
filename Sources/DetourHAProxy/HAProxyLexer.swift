import DetourDiagnostics
import DetourSupport
import Foundation

/// Splits a configuration file into lines of words as HAProxy 2.6's parser does: blanks
/// separate words; `#` outside quotes starts a comment; `\` escapes the next character outside
/// single quotes (see `unescape`); `"…"` groups and expands `${VAR}` and `${VAR-default}` from the environment;
/// `'…'` groups literally. The file must end with a line feed, or HAProxy refuses it.
struct HAProxyLexer {
    let path: String
    let environment: [String: String]

    /// Files larger than this are split at line feeds and their parts read on all cores.
    static let parallelFrom = 256 * 1024

    func lines(_ bytes: [UInt8], diagnostics: inout [Diagnostic]) -> [HAProxyLine] {
        let parts = bytes.count < Self.parallelFrom ? 1 : ProcessInfo.processInfo.activeProcessorCount
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
        return read.flatMap { $0.0 }
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

    private func lines(_ bytes: ArraySlice<UInt8>, firstLine: Int, diagnostics: inout [Diagnostic]) -> [HAProxyLine] {
        var lines: [HAProxyLine] = []
        var lineNumber = firstLine
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            if end == bytes.endIndex {
                diagnostics.append(
                    .error(
                        HAProxyRules.syntax.id,
                        "the last line has no line feed: HAProxy refuses the file ('Missing LF on last line, file might have been truncated')",
                        at: SourceLocation(path: path, line: lineNumber, column: end - start + 1)))
            }
            if let line = line(bytes[start..<end], number: lineNumber, diagnostics: &diagnostics) { lines.append(line) }
            start = end + 1
            lineNumber += 1
        }
        return lines
    }

    private func line(_ bytes: ArraySlice<UInt8>, number: Int, diagnostics: inout [Diagnostic]) -> HAProxyLine? {
        var words: [HAProxyWord] = []
        words.reserveCapacity(8)
        var current: [UInt8] = []
        current.reserveCapacity(64)
        var wordStart: Int?
        var quote: UInt8?
        var quoteColumn = 0
        var index = bytes.startIndex
        func column(_ at: Int) -> Int { at - bytes.startIndex + 1 }
        func finishWord() {
            if let begin = wordStart {
                words.append(HAProxyWord(text: String(decoding: current, as: UTF8.self), column: Int32(column(begin))))
            }
            current.removeAll(keepingCapacity: true)
            wordStart = nil
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            if quote == UInt8(ascii: "'") {
                if byte == UInt8(ascii: "'") { quote = nil } else { current.append(byte) }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\\"), quote != UInt8(ascii: "'") {
                if wordStart == nil { wordStart = index }
                index = unescape(bytes, at: index, inDoubleQuotes: quote != nil, into: &current)
                continue
            }
            if quote == UInt8(ascii: "\"") {
                if byte == UInt8(ascii: "\"") {
                    quote = nil
                    index += 1
                } else if byte == UInt8(ascii: "$"), index + 1 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: "{") {
                    index = expand(bytes, at: index, into: &current)
                } else {
                    current.append(byte)
                    index += 1
                }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                finishWord()
            case UInt8(ascii: "#"):
                finishWord()
                index = bytes.endIndex
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                if wordStart == nil { wordStart = index }
                quote = byte
                quoteColumn = column(index)
            default:
                if wordStart == nil { wordStart = index }
                current.append(byte)
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
        finishWord()
        return words.isEmpty ? nil : HAProxyLine(words: words, path: path, number: number)
    }

    /// The escape at `index` (a backslash): `\ `, `\#`, `\\`, `\'`, `\"`, `\t`, `\n`, `\r`,
    /// `\xHH`, and `\$` inside double quotes; any other backslash stays, as HAProxy keeps it.
    /// The index after it.
    private func unescape(_ bytes: ArraySlice<UInt8>, at index: Int, inDoubleQuotes: Bool, into current: inout [UInt8]) -> Int {
        guard index + 1 < bytes.endIndex else {
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
        case UInt8(ascii: "x") where index + 3 < bytes.endIndex:
            if let value = UInt8(String(decoding: bytes[(index + 2)...(index + 3)], as: UTF8.self), radix: 16) {
                current.append(value)
                return index + 4
            }
            current.append(contentsOf: [UInt8(ascii: "\\"), next])
        default:
            current.append(contentsOf: [UInt8(ascii: "\\"), next])
        }
        return index + 2
    }

    /// `${NAME}` or `${NAME-default}` at `index`: its value appended; the index after `}`.
    private func expand(_ bytes: ArraySlice<UInt8>, at index: Int, into current: inout [UInt8]) -> Int {
        guard let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "}")) else {
            current.append(contentsOf: bytes[index...])
            return bytes.endIndex
        }
        let inside = String(decoding: bytes[(index + 2)..<close], as: UTF8.self)
        let parts = inside.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let value = environment[String(parts[0])] ?? (parts.count == 2 ? String(parts[1]) : "")
        current.append(contentsOf: value.utf8)
        return close + 1
    }
}
