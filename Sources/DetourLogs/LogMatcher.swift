import Glibc

/// Finds the article pattern that explains a line, for every article at once, in one pass
/// over the line that skips most of its bytes: Wu and Manber's multi-pattern search over
/// `window` bytes of each pattern's anchor, with a shift table on two-byte blocks. A block no
/// window holds near its end moves the search on by up to `window - 1` bytes. Each anchor's
/// window is the stretch of it that other anchors share least: anchors begin alike
/// (`upstream sent …`, `upstream timed out …`), and a window on their common start would stop
/// the search at every `upstream` of every line.
public struct LogMatcher: Sendable {
    private struct Entry: Sendable {
        var cause: Int
        var pattern: LogPattern
        var anchor: [UInt8]
        /// Where the window starts in the anchor.
        var offset = 0
    }

    private let entries: [Entry]
    /// Bytes of each anchor the table looks at: the shortest anchor's length, at most 32.
    private let window: Int
    /// Per two-byte block, how far the window may move when the block ends it.
    private let shift: [UInt8]
    /// Per two-byte block that ends some anchor's window, those entries.
    private let ending: [UInt16: [Int]]
    /// Blocks that end the windows of many anchors (a knowledge base with thousands of
    /// `connect() failed …` patterns): their entries by the window's place in the anchor and the
    /// anchor's length, then by a hash of the whole anchor, so a window that matches costs a
    /// lookup per group, not a comparison per entry.
    private let crowded: [UInt16: [(offset: Int, length: Int, entries: [UInt64: [Int]])]]
    private static let crowdedBucket = 16
    /// The causes' errno-and-phase patterns (`LogErrnoPhase`), asked only of a line no pattern
    /// matches: they share their anchors with the patterns they come from, so among those they
    /// would cost every explained line another comparison. Empty in the matcher they make up.
    private let byErrnoAndPhase: [LogMatcher]

    public init(_ causes: [LogCause]) {
        self.init(causes, errnoAndPhase: LogErrnoPhase.pairs(of: causes))
    }

    /// A matcher of `causes`, with `pairs` (the same causes, with other patterns) for the lines
    /// none of theirs matches.
    private init(_ causes: [LogCause], errnoAndPhase pairs: [LogCause]?) {
        byErrnoAndPhase = pairs.map { [LogMatcher($0, errnoAndPhase: nil)] } ?? []
        var entries: [Entry] = []
        for (index, cause) in causes.enumerated() {
            for pattern in cause.patterns where pattern.anchor.count >= 2 {
                entries.append(Entry(cause: index, pattern: pattern, anchor: pattern.anchor))
            }
        }
        let window = min(32, entries.map(\.anchor.count).min() ?? 2)
        Self.placeWindows(&entries, window)
        var shift = [UInt8](repeating: UInt8(window - 1), count: 1 << 16)
        var ending: [UInt16: [Int]] = [:]
        for (index, entry) in entries.enumerated() {
            for end in 1..<window {
                let block = Self.block(entry.anchor, endingAt: entry.offset + end)
                shift[Int(block)] = min(shift[Int(block)], UInt8(window - 1 - end))
                if end == window - 1 { ending[block, default: []].append(index) }
            }
        }
        self.entries = entries
        self.window = window
        self.shift = shift
        self.ending = ending
        crowded = ending.filter { $0.value.count > Self.crowdedBucket }.mapValues { indices in
            Dictionary(grouping: indices) { [entries[$0].offset, entries[$0].anchor.count] }.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map {
                place, indices in
                (place[0], place[1], Dictionary(grouping: indices) { index in entries[index].anchor.withUnsafeBufferPointer { LogHash.of($0[...]) } })
            }
        }
    }

    /// The two bytes of `bytes` that end at `end`, as one number.
    private static func block(_ bytes: [UInt8], endingAt end: Int) -> UInt16 {
        UInt16(bytes[end - 1]) << 8 | UInt16(bytes[end])
    }

    /// Sets each entry's window where its blocks are held by the fewest anchors, and its last
    /// block ends the fewest windows placed before it: the search then stops where a line holds
    /// something only a few patterns name.
    private static func placeWindows(_ entries: inout [Entry], _ window: Int) {
        var holders: [UInt16: Int] = [:]
        for entry in entries {
            for block in Set((1..<entry.anchor.count).map { Self.block(entry.anchor, endingAt: $0) }) { holders[block, default: 0] += 1 }
        }
        var ends: [UInt16: Int] = [:]
        for index in entries.indices {
            let anchor = entries[index].anchor
            let cost = { (offset: Int) -> Int in
                (1..<window).reduce(0) { $0 + holders[Self.block(anchor, endingAt: offset + $1), default: 0] }
                    + window * ends[Self.block(anchor, endingAt: offset + window - 1), default: 0]
            }
            let offset = (0...(anchor.count - window)).map { (offset: $0, cost: cost($0)) }.min { $0.cost < $1.cost }?.offset ?? 0
            entries[index].offset = offset
            ends[Self.block(anchor, endingAt: offset + window - 1), default: 0] += 1
        }
    }

    /// Which cause explains `line`, and by which pattern: the one `detour diagnose` would
    /// count it under.
    public func explanation(of line: String) -> (cause: Int, pattern: LogPattern)? {
        Array(line.utf8).withUnsafeBufferPointer { bestPattern($0) }
    }

    /// The cause whose matching pattern has the most literal text, if any matches.
    func best(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        bestPattern(line)?.cause
    }

    /// The cause and the pattern with the most literal text that match `line`; a HAProxy line
    /// in the common log format that none matches is read as its `option httplog` fields.
    func bestPattern(_ line: UnsafeBufferPointer<UInt8>) -> (cause: Int, pattern: LogPattern)? {
        if let found = bestPatternAsWritten(line) { return found }
        if let found = HAProxyCLFLine.of(line)?.httplogView(of: line).withUnsafeBufferPointer({ bestPatternAsWritten($0) }) { return found }
        return byErrnoAndPhase.first?.bestPatternAsWritten(line)
    }

    private func bestPatternAsWritten(_ line: UnsafeBufferPointer<UInt8>) -> (cause: Int, pattern: LogPattern)? {
        guard !entries.isEmpty, line.count >= window, let base = line.baseAddress else { return nil }
        var best: (cause: Int, specificity: Int, entry: Int)?
        shift.withUnsafeBufferPointer { shift in
            var end = window - 1
            while end < line.count {
                let block = UInt16(base[end - 1]) << 8 | UInt16(base[end])
                let step = Int(shift[Int(block)])
                if step > 0 {
                    end += step
                    continue
                }
                let windowStart = end - window + 1
                for index in candidates(block, line, windowStart) {
                    let entry = entries[index]
                    let start = windowStart - entry.offset
                    guard entry.pattern.specificity > best?.specificity ?? -1, start >= 0, start + entry.anchor.count <= line.count else { continue }
                    let same = entry.anchor.withUnsafeBytes { memcmp(base + start, $0.baseAddress!, entry.anchor.count) == 0 }
                    if same, entry.pattern.matches(line, anchorAt: start) { best = (entry.cause, entry.pattern.specificity, index) }
                }
                end += 1
            }
        }
        return best.map { ($0.cause, entries[$0.entry].pattern) }
    }

    /// The entries whose window may start at `windowStart`, in the order they were added.
    private func candidates(_ block: UInt16, _ line: UnsafeBufferPointer<UInt8>, _ windowStart: Int) -> [Int] {
        guard let groups = crowded[block] else { return ending[block] ?? [] }
        var found: [Int] = []
        for group in groups {
            let start = windowStart - group.offset
            guard start >= 0, start + group.length <= line.count else { continue }
            if let indices = group.entries[LogHash.of(line[start..<start + group.length])] { found += indices }
        }
        return found.count > 1 ? found.sorted() : found
    }
}
