import DetourSupport

/// Work shared by the indexes of a site's languages. Most articles of a large site are not
/// translated, so each language indexes the same text for them:
/// - languages that tokenize alike score the pages from a source each of them holds once
///   (`SearchPage.source`) once, each record numbered by its page's slot, and each language's
///   index takes those postings with its own references;
/// - a page's doc shard text after its URL is made once for every language that holds its source.
/// What later languages take is written to a `TextSpill` meanwhile: a site of 100,000 articles
/// has hundreds of megabytes of postings. Each index is the one its language would make alone
/// (a test compares them), as neither scores nor excerpts depend on other pages. Used by one
/// thread, one language after another.
public final class SearchIndexSharing {
    /// A chunk of shared scores, its postings in the spill.
    private struct SpilledChunk {
        var chunk: SearchIndexChunk
        var buckets: [TextSpill.Reference]
        var logs: TextSpill.Reference
    }

    private struct Group {
        var sources: Set<String>
        var languagesLeft: Int
        var scored: (chunks: [SpilledChunk], slotOfSource: [String: Int])?
    }

    private var groups: [SearchTokenizer: Group] = [:]
    /// Where scores and doc text wait for later languages; nil keeps nothing between them.
    let spill: TextSpill?
    /// The sources more than one language holds, and how many languages are still to write
    /// their doc shards.
    private let docSources: Set<String>
    private var docLanguagesLeft: Int
    /// By source, where in the spill the doc text written so far is (`SearchIndexBuilder.pageTail`).
    private(set) var docs: [String: TextSpill.Reference] = [:]
    /// How many languages took shared scores.
    private(set) var languagesServed = 0

    /// `sources`: by language, the sources of its pages.
    public convenience init(sources: [String: [String]]) {
        self.init(sources: sources, spill: TextSpill())
    }

    init(sources: [String: [String]], spill: TextSpill?) {
        self.spill = spill
        var languagesHolding: [String: Int] = [:]
        for language in sources.keys {
            for source in Set(sources[language] ?? []) { languagesHolding[source, default: 0] += 1 }
        }
        docSources = Set(languagesHolding.compactMap { $0.value > 1 ? $0.key : nil })
        docLanguagesLeft = sources.count
        let byTokenizer = Dictionary(grouping: sources.keys) { SearchTokenizer(language: $0) }
        for (tokenizer, languages) in byTokenizer where languages.count > 1 {
            var languagesHolding: [String: Int] = [:]
            for language in languages {
                var held: [String: Int] = [:]
                for source in sources[language] ?? [] { held[source, default: 0] += 1 }
                for (source, count) in held where count == 1 { languagesHolding[source, default: 0] += 1 }
            }
            let shared = Set(languagesHolding.compactMap { $0.value == languages.count ? $0.key : nil })
            if !shared.isEmpty { groups[tokenizer] = Group(sources: shared, languagesLeft: languages.count) }
        }
    }

    /// The sources whose doc text a language writing its doc shards now hands over to later ones.
    var docSourcesToKeep: Set<String> {
        docLanguagesLeft > 1 && spill != nil ? docSources.subtracting(docs.keys) : []
    }

    /// Keeps the doc texts a language spilled for later ones.
    func keepDocs(_ made: [(source: String, reference: TextSpill.Reference)]) {
        for (source, reference) in made { docs[source] = reference }
    }

    /// One language has written its doc shards; after the last, nothing is kept.
    func finishDocs() {
        docLanguagesLeft -= 1
        if docLanguagesLeft <= 0 { docs = [:] }
    }

    /// For one language's `pages`, placed at `references`: the shared pages' scores with
    /// this language's references, and which pages they hold; nil when the language scores
    /// all its own (it shares nothing, its pages lack a shared source or hold one twice, a
    /// shared page has no place in its index, the scores could not be read back, or `cancelled`).
    func chunks(for pages: [SearchPage], references: [Int], tokenizer: SearchTokenizer, until cancelled: @Sendable () -> Bool) -> (
        chunks: [SearchIndexChunk], held: [Bool]
    )? {
        guard var group = groups.removeValue(forKey: tokenizer) else { return nil }
        group.languagesLeft -= 1
        var chunks: [SearchIndexChunk]
        let slotOfSource: [String: Int]
        if let scored = group.scored {
            guard let restored = Self.restore(scored.chunks, from: spill) else { return nil }
            (chunks, slotOfSource) = (restored, scored.slotOfSource)
        } else {
            let shared = pages.indices.filter { pages[$0].source.map(group.sources.contains) ?? false }
            // Pages that are not what the sources said: nothing is shared.
            guard shared.count == group.sources.count else { return nil }
            let slots = shared.enumerated().map { (page: $0.element, reference: $0.offset) }
            guard let scored = SearchIndexBuilder.score(pages, slots, tokenizer: tokenizer, until: cancelled) else { return nil }
            chunks = scored
            slotOfSource = Dictionary(uniqueKeysWithValues: shared.enumerated().map { (pages[$0.element].source!, $0.offset) })
            if group.languagesLeft > 0, let spilled = Self.spill(chunks, to: spill) { group.scored = (spilled, slotOfSource) }
        }
        if group.languagesLeft > 0, group.scored != nil { groups[tokenizer] = group }
        var held = [Bool](repeating: false, count: pages.count)
        var slotReferences = [Int32](repeating: -1, count: slotOfSource.count)
        for index in pages.indices {
            guard let source = pages[index].source, let slot = slotOfSource[source] else { continue }
            guard slotReferences[slot] < 0 else { return nil }
            slotReferences[slot] = Int32(references[index])
            held[index] = true
        }
        guard slotReferences.allSatisfy({ $0 >= 0 }) else { return nil }
        let moved = slotReferences
        _ = chunks.concurrentUpdate { $0.move(to: moved) }
        languagesServed += 1
        return (chunks, held)
    }

    /// `chunks` with their postings written to `spill`, bucket by bucket; nil when they cannot be.
    private static func spill(_ chunks: [SearchIndexChunk], to spill: TextSpill?) -> [SpilledChunk]? {
        guard let spill else { return nil }
        let spilled = chunks.concurrentMap { chunk -> SpilledChunk? in
            var kept = chunk
            let (buckets, logs) = kept.takePostings()
            let references = buckets.compactMap { spill.write(values: $0) }
            guard references.count == buckets.count, let logs = spill.write(values: logs) else { return nil }
            return SpilledChunk(chunk: kept, buckets: references, logs: logs)
        }
        return spilled.contains { $0 == nil } ? nil : spilled.compactMap { $0 }
    }

    /// The chunks `spill` wrote, their postings read back; nil when they cannot be.
    private static func restore(_ spilled: [SpilledChunk], from spill: TextSpill?) -> [SearchIndexChunk]? {
        guard let spill else { return nil }
        let chunks = spilled.concurrentMap { spilled -> SearchIndexChunk? in
            let buckets = spilled.buckets.compactMap { spill.read($0, as: SearchIndexBuilder.Posting.self) }
            guard buckets.count == spilled.buckets.count, let logs = spill.read(spilled.logs, as: SearchIndexBuilder.Posting.self) else { return nil }
            var chunk = spilled.chunk
            chunk.restore(buckets: buckets, logs: logs)
            return chunk
        }
        return chunks.contains { $0 == nil } ? nil : chunks.compactMap { $0 }
    }
}
