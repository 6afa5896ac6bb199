import DetourSupport

/// What patching one language's index after a page's text changed (`SearchIndexPatch`) needs
/// beyond the index's own files, made by the build that wrote them:
/// - the postings a file leaves out: a term with more than `postingsPerTerm` keeps only its
///   best in its file, so its next best are kept here, enough to replace those a page loses;
/// - how many pages have each word whose term differs (`connections` → `connect`), so that a
///   word's form leaves its file with its last page;
/// - each term bucket's share of the term files, so that a patch can tell whether the build
///   would have cut the terms into as many files.
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
    /// By word with a form: the pages that have it.
    public var formPages: [String: Int] = [:]
    /// By term bucket, four counts: the bytes and number of its term lines, and of its forms
    /// (`"word":"term"`).
    public var buckets: [Int]

    public init(pages: Int, records: Int, termShards: Int) {
        self.pages = pages
        self.records = records
        self.termShards = termShards
        buckets = Array(repeating: 0, count: 4 * SearchIndexLayout.termBuckets)
    }

    // MARK: - As lines

    private static let header = "detour-search-memo 1"

    /// The memo as lines of tab-separated fields (JSON took a tenth of a second to read for ten
    /// thousand pages): nil when a term or word holds a tab or a line feed.
    public var encoded: [UInt8]? {
        var out = Array((Self.header + "\n").utf8)
        for (index, count) in [pages, records, termShards].enumerated() {
            if index > 0 { out.append(UInt8(ascii: " ")) }
            FieldLines.append(count, to: &out)
        }
        out.append(0x0A)
        for (index, count) in buckets.enumerated() {
            if index > 0 { out.append(UInt8(ascii: " ")) }
            FieldLines.append(count, to: &out)
        }
        out.append(0x0A)
        func add(_ kind: String, _ word: String, _ values: [Int]) -> Bool {
            guard !word.utf8.contains(0x09), !word.utf8.contains(0x0A) else { return false }
            out += Array((kind + "\t" + word + "\t").utf8)
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: " ")) }
                FieldLines.append(value, to: &out)
            }
            out.append(0x0A)
            return true
        }
        for (term, kept) in frequentTerms.sorted(by: { $0.key < $1.key }) where !add("t", term, kept.map { Int($0) }) { return nil }
        for (term, kept) in frequentLogTerms.sorted(by: { $0.key < $1.key }) where !add("l", term, kept.map { Int($0) }) { return nil }
        for (word, count) in formPages.sorted(by: { $0.key < $1.key }) where !add("w", word, [count]) { return nil }
        return out
    }

    public init?(encoded bytes: [UInt8]) {
        (pages, records, termShards, buckets) = (0, 0, 0, [])
        var line = 0
        var frequentTerms: [String: [Int64]] = [:]
        var frequentLogTerms: [String: [Int64]] = [:]
        var formPages: [String: Int] = [:]
        var counts: [Int] = []
        var buckets: [Int] = []
        let read = FieldLines.forEach(in: bytes, separator: 0x09) { fields in
            defer { line += 1 }
            switch line {
            case 0: return FieldLines.string(fields[0]) == Self.header
            case 1:
                counts = FieldLines.integers(fields[0]) ?? []
                return counts.count == 3
            case 2:
                buckets = FieldLines.integers(fields[0]) ?? []
                return buckets.count == 4 * SearchIndexLayout.termBuckets
            default:
                guard fields.count == 3, fields[0].count == 1, let values = FieldLines.integers(fields[2]) else { return false }
                let word = FieldLines.string(fields[1])
                switch fields[0][0] {
                case UInt8(ascii: "t"): frequentTerms[word] = values.map(Int64.init)
                case UInt8(ascii: "l"): frequentLogTerms[word] = values.map(Int64.init)
                case UInt8(ascii: "w") where values.count == 1: formPages[word] = values[0]
                default: return false
                }
                return true
            }
        }
        guard read, line >= 3 else { return nil }
        (pages, records, termShards) = (counts[0], counts[1], counts[2])
        (self.buckets, self.frequentTerms, self.frequentLogTerms, self.formPages) = (buckets, frequentTerms, frequentLogTerms, formPages)
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
