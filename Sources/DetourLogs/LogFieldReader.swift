/// The space-separated fields of a span of a line, one after another, read in place: HAProxy's
/// request lines are read this way on every line of an access log.
struct LogFieldReader {
    let line: UnsafeBufferPointer<UInt8>
    var at: Int
    let end: Int

    mutating func next() -> Range<Int>? {
        let space = UInt8(ascii: " ")
        while at < end, line[at] == space { at += 1 }
        guard at < end else { return nil }
        let start = at
        while at < end, line[at] != space { at += 1 }
        return start..<at
    }
}
