/// What patching one language's index after a page's text changed (`SearchIndexPatch`) needs
/// beyond the index's own files, made by the build that wrote them:
/// - the postings a file leaves out: a term with more than `postingsPerTerm` keeps only its
///   best in its file, so its next best are kept here, enough to replace those a page loses;
/// - how many pages have each word whose term differs (`connections` → `connect`), so that a
///   word's form leaves its file with its last page;
/// - each term bucket's share of the term files, so that a patch can tell whether the build
///   would have cut the terms into as many files.
public struct SearchIndexMemo: Codable, Sendable, Equatable {
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
