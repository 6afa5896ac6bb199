import DetourSupport

/// What patching one language's index after a page's text changed (`SearchIndexPatch`) needs
/// beyond the index's own files, made by the build that wrote them:
/// - the postings a file leaves out: a term with more than `postingsPerTerm` keeps only its
///   best in its file, so its next best are kept here, enough to replace those a page loses;
/// - how many pages have each word whose term differs (`connections` → `connect`), so that a
///   word's form leaves its file with its last page;
/// - each term bucket's share of the term files, and each start cut by a character more
///   (`SearchIndexSplit`) with its terms' and forms' share, so that a patch can tell whether the
///   build would have cut the terms into as many files, by the same starts.
public struct SearchIndexMemo: Sendable, Equatable {
    /// How many postings of a frequent term are kept: the file's and as many again.
    public static let keptPerTerm = 2 * SearchIndexBuilder.postingsPerTerm

    /// The counts the layout was made from, and the term files the build settled on.
    public var pages: Int
    public var records: Int
    public var termShards: Int
    /// By term with more postings than its file keeps, in `t<n>.js` and apart in `l.js`: its
    /// best `keptPerTerm` postings in the files' order, each `reference << 8 | impact`.
    public var frequentTerms: [String: [Int64]] = [:]
    public var frequentLogTerms: [String: [Int64]] = [:]
    /// The fewest log records a term of the log file has (1 when it has every log term), and
    /// the postings its lines keep: above 1 or below `postingsPerTerm`, the file was cut to
    /// its budget, and a patch that changes its postings leaves it to the builder.
    public var logTermsFrom = 1
    public var logPostingsPerTerm = SearchIndexBuilder.postingsPerTerm
    var logFileWhole: Bool { logTermsFrom == 1 && logPostingsPerTerm == SearchIndexBuilder.postingsPerTerm }
    /// By word with a form: the pages that have it.
    public var formPages: [String: Int] = [:]
    /// By start over budget (`SearchIndexSplit.starts`): its terms' and forms' share.
    public var split: [String: Int] = [:]
    /// By term bucket, four counts: the bytes and number of its term lines, and of its forms
    /// (`"word":"term"`).
    public var buckets: [Int]
    /// How many amendments (`amendment(from:)`) the memo read had after it was last written
    /// whole: many, and the next is written whole instead.
    public private(set) var amendments = 0

    public init(pages: Int, records: Int, termShards: Int) {
        self.pages = pages
        self.records = records
        self.termShards = termShards
        buckets = Array(repeating: 0, count: 4 * SearchIndexLayout.termBuckets)
    }

    // MARK: - As lines

    private static let header = "detour-search-memo 4"

    /// The memo as lines of tab-separated fields (JSON took a tenth of a second to read for ten
    /// thousand pages): nil when a term or word holds a tab or a line feed.
    public var encoded: [UInt8]? {
        var out: [UInt8] = []
        return encode {
            out += $0
            return true
        } ? out : nil
    }

    /// The same, handed to `write` a piece of about a megabyte at a time (a large site's memo
    /// is 15 MB a language, and each held whole until the build ended topped its memory):
    /// false when a term or word holds a tab or a line feed, or `write` failed.
    public func encode(in write: (_ piece: [UInt8]) -> Bool) -> Bool {
        var out = Array((Self.header + "\n").utf8)
        Self.append(numbers: counts, to: &out)
        Self.append(numbers: buckets, to: &out)
        // A line appended, and the piece handed over once it is large enough.
        func line(_ kind: String, _ word: String, _ values: [Int]) -> Bool {
            guard Self.append(kind, word, values, to: &out) else { return false }
            guard out.count >= Self.pieceSize else { return true }
            defer { out.removeAll(keepingCapacity: true) }
            return write(out)
        }
        for (term, kept) in frequentTerms.sorted(by: { $0.key < $1.key }) where !line("t", term, kept.map { Int($0) }) { return false }
        for (term, kept) in frequentLogTerms.sorted(by: { $0.key < $1.key }) where !line("l", term, kept.map { Int($0) }) { return false }
        for (word, count) in formPages.sorted(by: { $0.key < $1.key }) where !line("w", word, [count]) { return false }
        for (start, share) in split.sorted(by: { $0.key < $1.key }) where !line("s", start, [share]) { return false }
        return write(out)
    }

    private static let pieceSize = 1 << 20

    /// The counts line: as `init?(encoded:)` reads it.
    private var counts: [Int] { [pages, records, termShards, logTermsFrom, logPostingsPerTerm] }

    /// What turns `saved` into this memo, as lines to append to `saved`'s file: a line `+`,
    /// then the counts (`n`) and buckets (`b`: index and count) that changed, and each term or
    /// word whose line changed, with no values when it is gone. Writing the whole memo took a
    /// tenth of a text edit's rebuild at ten thousand articles. Nil as `encoded`.
    public func amendment(from saved: SearchIndexMemo) -> [UInt8]? {
        var out = Array("+\n".utf8)
        if counts != saved.counts { _ = Self.append("n", "", counts, to: &out) }
        let changed = buckets.indices.filter { buckets[$0] != saved.buckets[$0] }
        if !changed.isEmpty { _ = Self.append("b", "", changed.flatMap { [$0, buckets[$0]] }, to: &out) }
        for (kind, now, then) in [("t", frequentTerms, saved.frequentTerms), ("l", frequentLogTerms, saved.frequentLogTerms)] {
            let terms = now.filter { then[$0.key] != $0.value }.map(\.key) + then.keys.filter { now[$0] == nil }
            for term in terms.sorted() where !Self.append(kind, term, now[term]?.map { Int($0) } ?? [], to: &out) { return nil }
        }
        let words = formPages.filter { saved.formPages[$0.key] != $0.value }.map(\.key) + saved.formPages.keys.filter { formPages[$0] == nil }
        for word in words.sorted() where !Self.append("w", word, formPages[word].map { [$0] } ?? [], to: &out) { return nil }
        let starts = split.filter { saved.split[$0.key] != $0.value }.map(\.key) + saved.split.keys.filter { split[$0] == nil }
        for start in starts.sorted() where !Self.append("s", start, split[start].map { [$0] } ?? [], to: &out) { return nil }
        return out
    }

    /// A line of numbers.
    private static func append(numbers: [Int], to out: inout [UInt8]) {
        for (index, value) in numbers.enumerated() {
            if index > 0 { out.append(UInt8(ascii: " ")) }
            FieldLines.append(value, to: &out)
        }
        out.append(0x0A)
    }

    /// A line of a kind, a term or word, and numbers; false when the word holds a tab or a line feed.
    private static func append(_ kind: String, _ word: String, _ values: [Int], to out: inout [UInt8]) -> Bool {
        guard !word.utf8.contains(0x09), !word.utf8.contains(0x0A) else { return false }
        out += Array((kind + "\t" + word + "\t").utf8)
        append(numbers: values, to: &out)
        return true
    }

    public init?(encoded bytes: [UInt8]) {
        (pages, records, termShards, buckets) = (0, 0, 0, [])
        var line = 0
        var frequentTerms: [String: [Int64]] = [:]
        var frequentLogTerms: [String: [Int64]] = [:]
        var formPages: [String: Int] = [:]
        var split: [String: Int] = [:]
        var counts: [Int] = []
        var buckets: [Int] = []
        var amendments = 0
        let read = FieldLines.forEach(in: bytes, separator: 0x09) { fields in
            defer { line += 1 }
            switch line {
            case 0: return FieldLines.string(fields[0]) == Self.header
            case 1:
                counts = FieldLines.integers(fields[0]) ?? []
                return counts.count == 5
            case 2:
                buckets = FieldLines.integers(fields[0]) ?? []
                return buckets.count == 4 * SearchIndexLayout.termBuckets
            default:
                if fields.count == 1, FieldLines.string(fields[0]) == "+" {
                    amendments += 1
                    return true
                }
                guard fields.count == 3, fields[0].count == 1, let values = FieldLines.integers(fields[2]) else { return false }
                let word = FieldLines.string(fields[1])
                // No values: an amendment's term or word that is gone.
                switch fields[0][0] {
                case UInt8(ascii: "t"): frequentTerms[word] = values.isEmpty ? nil : values.map(Int64.init)
                case UInt8(ascii: "l"): frequentLogTerms[word] = values.isEmpty ? nil : values.map(Int64.init)
                case UInt8(ascii: "w") where values.count <= 1: formPages[word] = values.first
                case UInt8(ascii: "s") where values.count <= 1: split[word] = values.first
                case UInt8(ascii: "n") where values.count == 5: counts = values
                case UInt8(ascii: "b") where values.count % 2 == 0:
                    for pair in stride(from: 0, to: values.count, by: 2) {
                        guard buckets.indices.contains(values[pair]) else { return false }
                        buckets[values[pair]] = values[pair + 1]
                    }
                default: return false
                }
                return true
            }
        }
        guard read, line >= 3 else { return nil }
        (pages, records, termShards, logTermsFrom, logPostingsPerTerm) = (counts[0], counts[1], counts[2], counts[3], counts[4])
        (self.buckets, self.frequentTerms, self.frequentLogTerms, self.formPages, self.split) = (buckets, frequentTerms, frequentLogTerms, formPages, split)
        self.amendments = amendments
    }

    /// The text size of term shard `shard` of `count` (`{terms},{forms}`), from the buckets.
    func shardSize(_ shard: Int, of count: Int) -> Int {
        var (termBytes, terms, formBytes, forms) = (0, 0, 0, 0)
        for bucket in stride(from: shard, to: SearchIndexLayout.termBuckets, by: count) {
            termBytes += buckets[4 * bucket]
            terms += buckets[4 * bucket + 1]
            formBytes += buckets[4 * bucket + 2]
            forms += buckets[4 * bucket + 3]
        }
        // `{` lines joined by `,\n` `},{` pairs joined by `,` `}`.
        return 2 + termBytes + 2 * max(terms - 1, 0) + 3 + formBytes + max(forms - 1, 0)
    }

    /// The largest shard's size when the terms are cut into `count` files.
    func largestShard(of count: Int) -> Int {
        (0..<count).map { shardSize($0, of: count) }.max() ?? 0
    }

    /// The term file count the builder settles on for these buckets: from the layout's own,
    /// doubled while the largest file is over budget and halving the terms shrinks it.
    func settledTermShards() -> Int {
        var count = SearchIndexLayout(pages: pages, records: records).termShards
        var largest = largestShard(of: count)
        while count < SearchIndexLayout.termBuckets, largest > SearchIndexLayout.termShardBudget {
            let split = largestShard(of: count * 2)
            guard split * 10 < largest * 9 else { break }
            (count, largest) = (count * 2, split)
        }
        return count
    }
}
