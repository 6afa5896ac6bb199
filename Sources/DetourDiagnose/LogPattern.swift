import Glibc

/// An article's `log_patterns` entry, read as a log line with its changing parts left open:
/// `connect() failed (111: Connection refused) while connecting to upstream` also matches the
/// same line with another errno value; `127.0.0.1:8080` matches any address and port. It
/// matches a line that contains it anywhere.
public struct LogPattern: Sendable {
    public let text: String
    /// The pieces, without holes at either end: they would only say that something stands
    /// there, and the line around a pattern always holds something.
    let pieces: [LogPiece]
    /// Bytes of literal text: of two patterns that match a line, the longer says more.
    public let specificity: Int

    public init(_ text: String) {
        self.text = text
        var pieces = LogPiece.cut(text.utf8)
        while case .hole = pieces.first { pieces.removeFirst() }
        while case .hole = pieces.last { pieces.removeLast() }
        // Only spaces and punctuation between changing parts: nothing to recognise a line by.
        let words = pieces.contains { piece in
            if case .literal(let bytes) = piece { bytes.contains(where: LogPiece.isLetter) } else { false }
        }
        self.pieces = words ? pieces : []
        specificity = pieces.reduce(0) { total, piece in
            if case .literal(let bytes) = piece { total + bytes.count } else { total }
        }
    }

    /// Whether nothing literal is left to look for: such a pattern matches nothing.
    public var isEmpty: Bool { pieces.isEmpty }

    public func matches(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard case .literal(let anchor)? = pieces.first, let base = line.baseAddress else { return false }
        // memchr finds the anchor's first byte (vectorised in the C library); memcmp the rest.
        let first = Int32(anchor[0])
        var from = 0
        while from + anchor.count <= line.count {
            guard let found = memchr(base + from, first, line.count - anchor.count + 1 - from) else { return false }
            let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let same = anchor.withUnsafeBytes { memcmp(base + at, $0.baseAddress!, anchor.count) == 0 }
            if same, match(1, line, at + anchor.count) { return true }
            from = at + 1
        }
        return false
    }

    /// Whether pieces from `index` on match `line` starting exactly at `position`.
    private func match(_ index: Int, _ line: UnsafeBufferPointer<UInt8>, _ position: Int) -> Bool {
        guard index < pieces.count else { return true }
        switch pieces[index] {
        case .literal(let bytes):
            guard position + bytes.count <= line.count else { return false }
            for offset in 0..<bytes.count where line[position + offset] != bytes[offset] { return false }
            return match(index + 1, line, position + bytes.count)
        case .hole(let hole):
            var end = position
            while end < line.count, hole.admits(line[end]) { end += 1 }
            // The longest run first, then shorter ones: an address hole may swallow the `:`
            // the next literal starts with.
            while end > position {
                if match(index + 1, line, end) { return true }
                end -= 1
            }
            return false
        }
    }
}
