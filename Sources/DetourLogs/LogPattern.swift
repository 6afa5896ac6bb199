/// An article's `log_patterns` entry, read as a log line with its changing parts left open:
/// `connect() failed (111: Connection refused) while connecting to upstream` also matches the
/// same line with another errno value; `127.0.0.1:8080` matches any address and port; `…` matches
/// any text, so `SSL_do_handshake() failed (…) while SSL handshaking to upstream` matches every
/// reason OpenSSL gives. Text between backticks stays as written, a number there included:
/// `signal \`9\`` matches signal 9 and no other. HAProxy's termination state written with its
/// cookie flags as dashes, `SQ--`, matches whatever flags a persistence cookie leaves there
/// (`SQVN`). It matches a line that contains it anywhere; `LogMatcher` looks for every
/// pattern at once.
public struct LogPattern: Sendable {
    public let text: String
    /// The pieces, without holes at either end: they would only say that something stands
    /// there, and the line around a pattern always holds something.
    let pieces: [LogPiece]
    /// The longest literal piece, which a line must contain: lines are searched for it first.
    let anchorIndex: Int
    /// Bytes of literal text: of two patterns that match a line, the longer says more.
    public let specificity: Int

    public init(_ text: String) {
        self.text = text
        var pieces: [LogPiece] = []
        for (index, part) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated() {
            if index % 2 == 0 {
                for (nth, stretch) in part.split(separator: "…", omittingEmptySubsequences: false).enumerated() {
                    if nth > 0 { pieces.append(.hole(.text)) }
                    pieces += LogPiece.cut(stretch.utf8).flatMap(Self.openingCookieFlags)
                }
            } else if !part.isEmpty {
                pieces.append(.literal(Array(part.utf8)))
            }
        }
        // A piece between backticks joins the literal text around it.
        pieces = pieces.reduce(into: []) { joined, piece in
            if case .literal(let bytes) = piece, case .literal(let before)? = joined.last {
                joined[joined.count - 1] = .literal(before + bytes)
            } else {
                joined.append(piece)
            }
        }
        while case .hole = pieces.first { pieces.removeFirst() }
        while case .hole = pieces.last { pieces.removeLast() }
        // Only spaces and punctuation between changing parts: nothing to recognise a line by.
        let words = pieces.contains { piece in
            if case .literal(let bytes) = piece { bytes.contains(where: LogPiece.isLetter) } else { false }
        }
        self.pieces = words ? pieces : []
        var anchor = 0
        var specificity = 0
        for (index, piece) in self.pieces.enumerated() {
            guard case .literal(let bytes) = piece else { continue }
            specificity += bytes.count
            if bytes.count > self.pieces[anchor].literalCount { anchor = index }
        }
        anchorIndex = anchor
        self.specificity = specificity
    }

    /// A literal with HAProxy's termination state in it (a word of four: who ended the session,
    /// where, then `--`) cut before the dashes, a hole in their place: the last two characters
    /// say what became of the persistence cookie, `--` only where no `cookie` is set.
    private static func openingCookieFlags(_ piece: LogPiece) -> [LogPiece] {
        guard case .literal(let bytes) = piece else { return [piece] }
        let dash = UInt8(ascii: "-")
        let space = UInt8(ascii: " ")
        var pieces: [LogPiece] = []
        var from = 0
        var index = 0
        while index + 4 <= bytes.count {
            let isState =
                (index == 0 || bytes[index - 1] == space) && (index + 4 == bytes.count || bytes[index + 4] == space)
                && bytes[index] != space && bytes[index + 1] != space && bytes[index + 2] == dash && bytes[index + 3] == dash
                && bytes[index + 1] != dash
            if isState {
                pieces.append(.literal(Array(bytes[from..<(index + 2)])))
                pieces.append(.hole(.text))
                from = index + 4
                index += 4
            } else {
                index += 1
            }
        }
        if from < bytes.count { pieces.append(.literal(Array(bytes[from...]))) }
        return pieces
    }

    /// The line the pattern was written from: its text without backticks.
    public var example: String { text.replacingOccurrences(of: "`", with: "") }

    /// Whether nothing literal is left to look for: such a pattern matches nothing.
    public var isEmpty: Bool { pieces.isEmpty }

    /// The literal every matching line contains.
    var anchor: [UInt8] {
        guard !pieces.isEmpty, case .literal(let bytes) = pieces[anchorIndex] else { return [] }
        return bytes
    }

    /// Whether the line matches with the anchor found at `start`: the pieces before it end
    /// there, those after it start where it ends.
    func matches(_ line: UnsafeBufferPointer<UInt8>, anchorAt start: Int) -> Bool {
        matchBackward(anchorIndex - 1, line, start) && matchForward(anchorIndex + 1, line, start + pieces[anchorIndex].literalCount)
    }

    /// Whether pieces from `index` on match `line` starting exactly at `position`.
    private func matchForward(_ index: Int, _ line: UnsafeBufferPointer<UInt8>, _ position: Int) -> Bool {
        guard index < pieces.count else { return true }
        switch pieces[index] {
        case .literal(let bytes):
            guard position + bytes.count <= line.count else { return false }
            for offset in 0..<bytes.count where line[position + offset] != bytes[offset] { return false }
            return matchForward(index + 1, line, position + bytes.count)
        case .hole(let hole):
            var end = position
            while end < line.count, hole.admits(line[end]) { end += 1 }
            // The longest run first, then shorter ones: an address hole may swallow the `:`
            // the next literal starts with.
            while end > position {
                if matchForward(index + 1, line, end) { return true }
                end -= 1
            }
            return false
        }
    }

    /// Whether pieces from `index` down to the first match `line` ending exactly at `end`.
    private func matchBackward(_ index: Int, _ line: UnsafeBufferPointer<UInt8>, _ end: Int) -> Bool {
        guard index >= 0 else { return true }
        switch pieces[index] {
        case .literal(let bytes):
            guard end - bytes.count >= 0 else { return false }
            for offset in 0..<bytes.count where line[end - bytes.count + offset] != bytes[offset] { return false }
            return matchBackward(index - 1, line, end - bytes.count)
        case .hole(let hole):
            var start = end
            while start > 0, hole.admits(line[start - 1]) { start -= 1 }
            while start < end {
                if matchBackward(index - 1, line, start) { return true }
                start += 1
            }
            return false
        }
    }
}

extension LogPiece {
    /// The bytes of a literal piece; 0 for a hole.
    var literalCount: Int {
        if case .literal(let bytes) = self { bytes.count } else { 0 }
    }
}
