import DetourSupport

/// Work shared by the indexes of a site's languages. Most articles of a large site are not
/// translated, so each language indexes the same text for them:
/// - languages that tokenize alike score the pages from a source each of them holds once
///   (`SearchPage.source`) once, each record numbered by its page's slot, and each language's
///   index takes those postings with its own references;
/// - a page's doc shard text after its URL is made once for every language that holds its source.
/// Each index is the one its language would make alone (a test compares them), as neither
/// scores nor excerpts depend on other pages. Used by one thread, one language after another.
public final class SearchIndexSharing {
    /// Postings kept from one language to the next at most, eight bytes each: beyond it (a
    /// site of 100,000 articles has tens of millions) each language scores its own pages.
    public static let defaultBudget = 8 << 20

    private struct Group {
        var sources: Set<String>
        var languagesLeft: Int
        var scored: (chunks: [SearchIndexChunk], slotOfSource: [String: Int])?
        var kept = true
    }

    /// Bytes of doc text kept from one language to the next at most.
    public static let defaultDocBudget = 32 << 20

    private var groups: [SearchTokenizer: Group] = [:]
    private let budget: Int
    private let docBudget: Int
    /// The sources more than one language holds, and how many languages are still to write
    /// their doc shards.
    private let docSources: Set<String>
    private var docLanguagesLeft: Int
    /// By source, the doc text written so far (`SearchIndexBuilder.pageTail`), and its bytes.
    private(set) var docs: [String: String] = [:]
    private var docBytes = 0
    /// How many languages took shared scores.
    private(set) var languagesServed = 0

    /// `sources`: by language, the sources of its pages.
    public init(sources: [String: [String]], budget: Int = defaultBudget, docBudget: Int = defaultDocBudget) {
        self.budget = budget
        self.docBudget = docBudget
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
        docLanguagesLeft > 1 && docBytes < docBudget ? docSources.subtracting(docs.keys) : []
    }

    /// Keeps `made` doc texts for later languages, as far as the budget goes.
    func keepDocs(_ made: [(source: String, tail: String)]) {
        for (source, tail) in made where docBytes < docBudget && docs[source] == nil {
            docs[source] = tail
            docBytes += tail.utf8.count
        }
    }

    /// One language has written its doc shards; after the last, nothing is kept.
    func finishDocs() {
        docLanguagesLeft -= 1
        if docLanguagesLeft <= 0 { (docs, docBytes) = ([:], 0) }
    }

    /// For one language's `pages`, placed at `references`: the shared pages' scores with
    /// this language's references, and which pages they hold; nil when the language scores
    /// all its own (it shares nothing, its pages lack a shared source or hold one twice, a
    /// shared page has no place in its index, or `cancelled`).
    func chunks(for pages: [SearchPage], references: [Int], tokenizer: SearchTokenizer, until cancelled: @Sendable () -> Bool) -> (
        chunks: [SearchIndexChunk], held: [Bool]
    )? {
        // Taken out while used, so that the last language moves the postings in place.
        guard var group = groups.removeValue(forKey: tokenizer) else { return nil }
        group.languagesLeft -= 1
        if group.scored == nil {
            let shared = pages.indices.filter { pages[$0].source.map(group.sources.contains) ?? false }
            // Pages that are not what the sources said: nothing is shared.
            guard shared.count == group.sources.count else { return nil }
            let slots = shared.enumerated().map { (page: $0.element, reference: $0.offset) }
            guard let chunks = SearchIndexBuilder.score(pages, slots, tokenizer: tokenizer, until: cancelled) else { return nil }
            group.kept = chunks.reduce(0) { $0 + $1.postingCount } <= budget
            group.scored = (chunks, Dictionary(uniqueKeysWithValues: shared.enumerated().map { (pages[$0.element].source!, $0.offset) }))
        }
        guard case (var chunks, let slotOfSource)? = group.scored.take() else { return nil }
        if group.languagesLeft > 0, group.kept {
            group.scored = (chunks, slotOfSource)
            groups[tokenizer] = group
        }
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
}
