import Glibc

/// Where a run of bytes ends in a line, if the line holds it: memchr for its first byte, then
/// memcmp, both vectorised in the C library, where a Swift loop looks at one byte at a time.
enum LogSearch {
    static func end(of text: [UInt8], in line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !text.isEmpty, line.count >= text.count, let base = line.baseAddress else { return nil }
        var start = 0
        let last = line.count - text.count
        while start <= last, let found = memchr(base + start, Int32(text[0]), last - start + 1) {
            let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if text.withUnsafeBytes({ memcmp(base + at, $0.baseAddress!, text.count) }) == 0 { return at + text.count }
            start = at + 1
        }
        return nil
    }
}
