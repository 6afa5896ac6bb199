/// What a line no article explains looks like with its changing parts replaced (`N`,
/// `ADDRESS`, `PATH`) and its time left out: lines of one problem share a shape, so the most
/// frequent shapes tell an author which article to write next. Only the start of a line is
/// looked at: lines of one problem share it, and it keeps each line's cost small.
enum LogShape {
    /// Bytes of a line (after its time) a shape is made from.
    static let lookedAt = 200

    /// The line's shape, written into `shape` (which is reused from line to line, so counting
    /// shapes allocates only for a new one); `time` is the line's (`LogTime.of`).
    static func write(_ line: UnsafeBufferPointer<UInt8>, time: LogTime?, into shape: inout [UInt8]) {
        shape.removeAll(keepingCapacity: true)
        var start = time?.prefix ?? 0
        while start < line.count, line[start] == UInt8(ascii: " ") { start += 1 }
        let body = UnsafeBufferPointer(rebasing: line[start..<min(line.count, start + lookedAt)])
        LogPiece.scan(body, literal: { shape += body[$0] }, hole: { shape += $0.placeholder.utf8 })
    }

    /// FNV-1a over eight bytes at a time, then the rest: shapes are counted by it.
    static func hash(_ shape: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        shape.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x100_0000_01b3
                hash ^= hash >> 29
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* 0x100_0000_01b3
                offset += 1
            }
        }
        return hash ^ UInt64(shape.count)
    }
}
