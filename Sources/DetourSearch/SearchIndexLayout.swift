/// How one language's index is cut into files, the part `search.js` computes too:
/// - `index.js`, the entry: counts, the code pages, the site's languages, the question words a
///   query drops (`QuestionWords`), and for a small
///   site everything else (`terms`: [[terms, forms]], `docs`: one doc shard);
/// - `t<n>.js`: terms, and words as written with their stem, whose first two characters hash to
///   `n` (FNV-1a over UTF-16 mod `termShards`),
///   so one word, its prefixes and its typos are all in one file;
/// - `d<n>.js`: pages whose URL hashes to `n`, with their sections' text for the excerpts.
/// A reference to a record is `((docShard × 1024) + page slot) × 64 + record`; record 0 is the page.
/// At most 16,384 doc shards keep references under 2³⁰, so the browser may use bit operations.
public struct SearchIndexLayout: Sendable, Equatable {
    public static let pagesPerDocShard = 1024
    public static let recordsPerPage = 64

    public let termShards: Int
    public let docShards: Int

    /// Shard counts grow in powers of two, so adding pages seldom moves anything between files.
    /// A site of up to 64 pages and 1,000 records is one file.
    public init(pages: Int, records: Int) {
        termShards = records <= 1000 ? 1 : Self.powerOfTwo(atLeast: records / 1000, limit: 4096)
        docShards = pages <= 64 && records <= 1000 ? 1 : Self.powerOfTwo(atLeast: pages / 4, limit: 16384)
    }

    public var isSingleFile: Bool { termShards == 1 && docShards == 1 }

    public func termShard(of term: String) -> Int {
        let key = String(String.UnicodeScalarView(term.unicodeScalars.prefix(2)))
        return Int(Self.hash(key) % UInt32(termShards))
    }

    public func docShard(of url: String) -> Int { Int(Self.hash(url) % UInt32(docShards)) }

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
