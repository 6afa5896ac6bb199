/// A file's lines by number, for rewriting one whole: where each starts is found once, so a
/// configuration with thousands of rewritten lines is not scanned again for each.
public struct SourceLines: Sendable {
    public let bytes: [UInt8]
    /// Where line N (1-based) starts, at index N.
    private let starts: [Int]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0, 0]
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(index + 1) }
        self.starts = starts
    }

    /// Line `number`'s text from its first word to its last (blanks and a `\r` at either end
    /// left out); nil when there is no such line, it is blank, or it is continued with `\` on
    /// the next (its words were read across lines: rewriting one of them would break it).
    public func statement(at number: Int) -> Range<Int>? {
        guard number >= 1, number < starts.count else { return nil }
        var start = starts[number]
        var end = number + 1 < starts.count ? starts[number + 1] - 1 : bytes.count
        let blanks: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")]
        while start < end, blanks.contains(bytes[start]) { start += 1 }
        while end > start, blanks.contains(bytes[end - 1]) { end -= 1 }
        guard end > start, bytes[end - 1] != UInt8(ascii: "\\") else { return nil }
        return start..<end
    }
}
