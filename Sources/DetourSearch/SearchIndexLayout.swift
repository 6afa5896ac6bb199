/// How one language's index is cut into files, the part `search.js` computes too:
/// - `index.js`, the entry: counts, the code pages, the site's languages, the question words a
///   query drops (`QuestionWords`), the log file's word and pair filters (if any), and for a
///   small site everything else (`terms`: [[terms, forms]], `docs`: one doc shard);
/// - `t<n>.js`: terms, and words as written with their stem, whose first two characters hash to
///   `n` (FNV-1a over UTF-16 mod `termShards`), so one word, its prefixes and its typos are all
///   in one file; there are as many as keep each under `termShardBudget`. A start with more
///   terms than that is cut by its third character, and so on (`termKey`): the entry's `split`
///   lists those starts;
/// - `d<n>.js`: pages whose URL hashes to `n` (a shard for every two pages, rounded up to a power
///   of two: a result's excerpt brings one or two pages' text), with their sections' text for
///   the excerpts;
/// - `l.js`: the terms of pages' `log_patterns` with those pages' postings (and the count of
///   their records with log terms, among which a term's rarity is weighed, and each term's
///   count over the site, past which it is not), which a query of
///   five words or more (a pasted log line), or of three or four with a number, an identifier,
///   or its words side by side as a line has them, is matched against first, in one file; the
///   entry's `logs` is a filter of its words (`LogTermFilter`) and `pairs` one of the lines'
///   plain words' neighbours, so the browser knows which queries to read there. Over
///   `logFileBudget`, its lines keep fewer postings, then the terms on fewest log records are
///   left to the term shards, the lines' plain words last;
/// - `c<n>.js`: cards, a result as the results page shows it, for the best records of each
///   term on more than `cardMinimum` records (a word whose results would take more page shards
///   than cards), by the term's hash (FNV-1a of the whole term mod `cardShards`): its ten results
///   come in one file rather than in ten page shards (`SearchIndexCards`).
/// A reference to a record is `((docShard × 1024) + page slot) × 64 + record`; record 0 is the page.
/// At most 16,384 doc shards keep references under 2³⁰, so the browser may use bit operations.
public struct SearchIndexLayout: Sendable, Equatable {
    public static let pagesPerDocShard = 1024
    public static let recordsPerPage = 64

    /// Terms are scored into this many buckets by their hash; a shard is every bucket whose
    /// number leaves its number when divided by the shard count (a power of two up to this).
    public static let termBuckets = 4096
    /// A term shard grows past this only when one two-letter start alone is larger: a query's
    /// shards, its page shard and the entry stay near 100 KB.
    public static let termShardBudget = 40 * 1024
    /// The log file's terms and forms (its site counts, about a tenth more, beside them): with
    /// the search page and a card, a pasted line's first result stays under 100 KB
    /// (`SearchIndexBuilder` leaves its rarest terms out to fit).
    public static let logFileBudget = 36 * 1024

    /// At least the shard count the records call for; the builder doubles it while a shard's
    /// text is over `termShardBudget`.
    public internal(set) var termShards: Int
    public let docShards: Int
    /// None below 1,024 page shards (about a thousand pages): a smaller site's words are on
    /// fewer pages, and cards for its common words would outweigh its pages' text.
    public let cardShards: Int
    /// A term has cards when it is on more records than this: `cardsOver` (0 without cards:
    /// it does not change the layout of a site that has none).
    public let cardMinimum: Int
    /// A term on this many records or fewer brings its results in as many page shards at
    /// most; on more, its cards save requests, a rare word's as much as a common one's.
    public static let cardsOver = 4
    /// A term's best records that have cards: a results page's ten.
    public static let cardsPerTerm = 10

    /// Shard counts grow in powers of two, so adding pages seldom moves anything between files.
    /// A site of up to 64 pages and 1,000 records is one file, if its terms fit the budget.
    public init(pages: Int, records: Int) {
        termShards = records <= 1000 ? 1 : Self.powerOfTwo(atLeast: records / 1000, limit: Self.termBuckets)
        docShards = pages <= 64 && records <= 1000 ? 1 : Self.powerOfTwo(atLeast: pages / 2, limit: 16384)
        cardShards = docShards >= 1024 ? docShards / 16 : 0
        cardMinimum = cardShards > 0 ? Self.cardsOver : 0
    }

    public var isSingleFile: Bool { termShards == 1 && docShards == 1 }

    /// A page's records: the page, and its sections up to the records a page may have.
    public static func records(of page: SearchPage) -> Int { 1 + min(page.sectionCount, recordsPerPage - 1) }

    public func termShard(of term: String, split: Set<String> = []) -> Int { Self.termBucket(of: term, split: split) % termShards }

    /// By the term's key (`termKey`), so a word, its prefixes and its typos share a bucket.
    public static func termBucket(of term: String, split: Set<String> = []) -> Int {
        Int(hash(termKey(of: term, split: split)) % UInt32(termBuckets))
    }

    /// A term's first two characters, or, where those start more terms than one shard's budget
    /// holds (`split`: the site's list, `SearchIndexSplit`), its shortest start not in the list:
    /// `shop-a1` under `sh`, `sho`, `shop` and `shop-` is cut by `shop-a`.
    public static func termKey(of term: String, split: Set<String> = []) -> String {
        let scalars = term.unicodeScalars
        var length = 2
        if !split.isEmpty {
            while length < scalars.count, split.contains(String(String.UnicodeScalarView(scalars.prefix(length)))) { length += 1 }
        }
        return String(String.UnicodeScalarView(scalars.prefix(length)))
    }

    public func docShard(of url: String) -> Int { Int(Self.hash(url) % UInt32(docShards)) }

    public func cardShard(of term: String) -> Int { Int(Self.hash(term) % UInt32(cardShards)) }

    /// 32-bit FNV-1a over UTF-16 code units, as JavaScript sees a string.
    public static func hash(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for unit in text.utf16 { hash = (hash ^ UInt32(unit)) &* 16_777_619 }
        return hash
    }

    private static func powerOfTwo(atLeast value: Int, limit: Int) -> Int {
        var power = 1
        while power < value, power < limit { power *= 2 }
        return power
    }
}
