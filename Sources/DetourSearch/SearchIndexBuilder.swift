import DetourSupport
import Foundation

/// Writes one language's search index (see `SearchIndexLayout` for its files). Each record (a
/// page, or one of its sections) scores each of its terms once, at build time, by the fields
/// the term is in; the browser adds how rare the term is. A term keeps its best-scoring
/// postings only: enough to rank, and a frequent word costs no more to load than a rare one.
public enum SearchIndexBuilder {
    public static let postingsPerTerm = 200
    /// The log file's lines, over its budget, are cut shorter before its terms on the fewest
    /// log records leave it: a pasted line is matched by its many words, each on few pages.
    static let logPostingsPerTerm = [postingsPerTerm, 100, 50, 20]

    /// Field weights: title > codes > headings > log lines > tags > text. `search.js` counts an
    /// identifier asked for whole at least as a heading's one mention: 5, times the 4 `SearchIndexChunk` scales by.
    enum Field: Int, CaseIterable {
        case title, codes, headings, logs, tags, text
        var weight: Double { [10, 8, 5, 4, 3, 1][rawValue] }
    }

    /// A term's impact in one record, in eight bytes (a large site's index holds millions while
    /// it is built): the term's number in the top bits, so that postings sort by term, then the
    /// record's reference (below 2³⁰, `SearchIndexLayout`), then the impact.
    struct Posting {
        /// Term numbers a chunk may give (`SearchIndexChunk`): what the top bits hold.
        static let termLimit: Int32 = 1 << 26
        let bits: UInt64

        init(term: Int32, reference: Int32, impact: UInt8) {
            bits = UInt64(term) << 38 | UInt64(reference) << 8 | UInt64(impact)
        }

        var term: Int32 { Int32(bits >> 38) }
        var reference: Int32 { Int32(truncatingIfNeeded: (bits >> 8) & 0x3FFF_FFFF) }
        var impact: UInt8 { UInt8(truncatingIfNeeded: bits) }
    }

    /// One language's index: its files, relative to the language's folder, and, when it is more
    /// than one file, the entry's object alone (`head`), for the search page to carry inline so
    /// a query's first request is already for its terms.
    public struct Output: Sendable {
        public var files: [(path: String, contents: String)]
        public var head: String?
    }

    /// `languages`: every language of the site, for a query that finds nothing in this one.
    public static func build(_ pages: [SearchPage], language: String, languages: [String]) -> Output {
        build(pages, language: language, languages: languages, until: { false })!
    }

    /// The same, given up (nil) soon after `cancelled` says so: an index a newer save has made
    /// old is not worth the cores the save's own build needs.
    public static func build(_ pages: [SearchPage], language: String, languages: [String], until cancelled: @Sendable () -> Bool) -> Output? {
        var files: [(path: String, contents: String)] = []
        guard let head = build(pages, language: language, languages: languages, until: cancelled, emit: { files += $0 }) else { return nil }
        return Output(files: files, head: head)
    }

    /// The same, its files handed to `emit` a few at a time as they are made, each let go once
    /// handed over: a large site's doc shards are hundreds of megabytes in all. The entry's
    /// object (`Output.head`), or nil once `cancelled` says so (some files may have been
    /// handed over by then). `sharing`: work shared with the site's other languages.
    public static func build(
        _ pages: [SearchPage], language: String, languages: [String], until cancelled: @Sendable () -> Bool,
        emit: (_ files: [(path: String, contents: String)]) -> Void, memo: ((SearchIndexMemo) -> Void)? = nil, sharing: SearchIndexSharing? = nil
    ) -> String?? {
        let records = pages.reduce(0) { $0 + SearchIndexLayout.records(of: $1) }
        var layout = SearchIndexLayout(pages: pages.count, records: records)
        let tokenizer = SearchTokenizer(language: language)

        // Each doc shard's pages, by URL, so a page keeps its place while others come and go.
        var docShards = [[Int]](repeating: [], count: layout.docShards)
        for index in pages.indices { docShards[layout.docShard(of: pages[index].url)].append(index) }
        var references = [Int](repeating: -1, count: pages.count)
        for shard in docShards.indices {
            docShards[shard].sort { pages[$0].url < pages[$1].url }
            docShards[shard] = Array(docShards[shard].prefix(SearchIndexLayout.pagesPerDocShard))
            for (slot, page) in docShards[shard].enumerated() { references[page] = shard * SearchIndexLayout.pagesPerDocShard + slot }
        }
        let pageReference = references
        let docShardMembers = docShards
        // A page from a source another language wrote before is its text again, with its own URL.
        defer { sharing?.finishDocs() }
        // A one-file index's docs are in its entry, which no later language reads back.
        let (knownDocs, keptDocs) = (sharing?.docs ?? [:], layout.isSingleFile ? [] : sharing?.docSourcesToKeep ?? [])
        let docSpill = sharing?.spill
        let docShard: @Sendable (Int) -> (text: String, made: [(source: String, reference: TextSpill.Reference)]) = { shard in
            var made: [(source: String, reference: TextSpill.Reference)] = []
            let arrays = docShardMembers[shard].map { index in
                let page = pages[index]
                if let source = page.source, let known = knownDocs[source], let tail = docSpill?.read(known) {
                    return "[" + literal(page.url) + "," + String(decoding: tail, as: UTF8.self)
                }
                let tail = Self.pageTail(page)
                if let source = page.source, keptDocs.contains(source), let reference = docSpill?.write(Array(tail.utf8)) { made.append((source, reference)) }
                return "[" + literal(page.url) + "," + tail
            }
            return ("[" + arrays.joined(separator: ",\n") + "]", made)
        }

        var termShards: [String] = []
        // Log lines' plain words: the terms the log file keeps longest, and their pairs, which
        // the entry carries a filter of.
        let plain = LogTermFilter.plainWords(in: pages.flatMap(\.logPatterns), tokenizer: tokenizer, fillers: Set(QuestionWords.words(for: language)))
        let lineTerms = Set(plain.words.compactMap(tokenizer.term(forWord:)))
        var logs: (text: String, filter: LogTermFilter, records: Int)?
        var cards: [(term: String, records: [Int32])] = []
        var made = SearchIndexMemo(pages: pages.count, records: records, termShards: layout.termShards)
        guard
            Self.scoreTerms(
                pages, references: pageReference, tokenizer: tokenizer, lineTerms: lineTerms, into: &termShards, logs: &logs, cards: &cards, layout: &layout,
                memo: &made,
                until: cancelled, sharing: sharing)
        else { return nil }
        memo?(made)

        var entry = "{\"records\":\(records),\"termShards\":\(layout.termShards),\"languages\":\(literals(languages))"
        if !layout.isSingleFile, !made.split.isEmpty { entry += ",\"split\":" + literals(made.split.keys.sorted()) }
        entry += ",\"filler\":" + literals(QuestionWords.words(for: language))
        entry += ",\"syn\":{" + SearchAbbreviations.table.map { literal($0.word) + ":" + literals($0.others) }.joined(separator: ",") + "}"
        if !layout.isSingleFile, let logs {
            entry += ",\"logs\":\(literal(logs.filter.encoded)),\"pairs\":\(literal(LogTermFilter(words: plain.pairs).encoded))"
        }
        if !layout.isSingleFile, layout.cardShards > 0 { entry += ",\"cards\":[\(layout.cardShards),\(layout.cardMinimum)]" }
        let codes = pages.indices.compactMap { index in pages[index].definesStatus.map { "\"\($0)\":\(pageReference[index])" } }
        entry += ",\"codes\":{" + codes.joined(separator: ",") + "}"
        let reasons = pages.compactMap { page in page.definesStatus.map { "\"\($0)\":" + literal(Self.reasonWords(page, tokenizer: tokenizer)) } }
        entry += ",\"why\":{" + reasons.joined(separator: ",") + "}"
        if layout.isSingleFile { entry += ",\"terms\":[\(termShards[0])],\"docs\":\(docShard(0).text)" }
        entry += "}"
        var files = [(path: "index.js", contents: "detourSearch.entry(\(literal(language)),\(entry));\n")]
        guard !layout.isSingleFile else {
            emit(files)
            return .some(nil)
        }
        // Each shard's text is let go as its file's is made: the index is not held twice.
        for shard in termShards.indices {
            let text = termShards[shard]
            termShards[shard] = ""
            if text != "{},{}" { files.append(("t\(shard).js", "detourSearch.terms(\(literal(language)),\(shard),\(text));\n")) }
        }
        if let logs { files.append(("l.js", "detourSearch.logs(\(literal(language)),\(logs.records),\(logs.text));\n")) }
        files += Self.cardFiles(cards, pages: pages, references: pageReference, layout: layout, language: language)
        emit(files)
        files = []
        // Doc shards a batch at a time, on every core, each batch handed over before the next.
        for batch in stride(from: 0, to: docShardMembers.count, by: Self.docShardBatch) {
            if cancelled() { return nil }
            let shards = Array(batch..<min(batch + Self.docShardBatch, docShardMembers.count)).filter { !docShardMembers[$0].isEmpty }
            let made = shards.concurrentMap { shard in (shard, docShard(shard)) }
            sharing?.keepDocs(made.flatMap(\.1.made))
            emit(made.map { shard, doc in ("d\(shard).js", "detourSearch.docs(\(literal(language)),\(shard),\(doc.text));\n") })
        }
        return .some(entry)
    }

    /// The card files (`SearchIndexCards`): each term's cards, the terms of a file sorted.
    static func cardFiles(
        _ cards: [(term: String, records: [Int32])], pages: [SearchPage], references: [Int], layout: SearchIndexLayout, language: String
    ) -> [(path: String, contents: String)] {
        guard layout.cardShards > 0, !cards.isEmpty else { return [] }
        var byReference: [Int: Int] = [:]
        for (index, reference) in references.enumerated() where reference >= 0 { byReference[reference] = index }
        var shards = [[(term: String, records: [Int32])]](repeating: [], count: layout.cardShards)
        var recordsByPage: [Int: Set<Int32>] = [:]
        for card in cards {
            shards[layout.cardShard(of: card.term)].append(card)
            for record in card.records { recordsByPage[byReference[Int(record) / SearchIndexLayout.recordsPerPage]!, default: []].insert(record) }
        }
        // Each page's cards made once, its text read once.
        let made = Array(recordsByPage).concurrentMap { page, records in SearchIndexCards.cards(references: records, page: pages[page]) }
        let cardOf = made.reduce(into: [Int32: String]()) { all, cards in all.merge(cards) { first, _ in first } }
        let byShard = shards
        return byShard.indices.filter { !byShard[$0].isEmpty }.concurrentMap { shard in
            let lines = byShard[shard].sorted { $0.term < $1.term }.map { term, records in
                SearchIndexCards.line(term: term, cards: records.map { cardOf[$0]! })
            }
            return ("c\(shard).js", SearchIndexCards.file(language: language, shard: shard, lines: lines))
        }
    }

    /// A status page's reason phrase and its former ones, in words but the status (`bad
    /// gateway`), as the browser cuts a query's: beside the status, a query's words that only
    /// name it are dropped.
    static func reasonWords(_ page: SearchPage, tokenizer: SearchTokenizer) -> String {
        var words: [String] = []
        for phrase in [page.title] + page.aliases {
            tokenizer.forEachWord(in: phrase) { word in
                if word != page.definesStatus.map(String.init), !words.contains(word) { words.append(word) }
            }
        }
        return words.joined(separator: " ")
    }

    /// Doc shards made and handed over together: enough to share among the cores.
    static let docShardBatch = 64

    /// Every page's terms scored and laid out in term shards (`{terms},{forms}` each, as many
    /// as keep each under budget: `layout.termShards`), and the log file; false once
    /// `cancelled`. The scoring's working memory (a vocabulary and postings per core) ends here.
    private static func scoreTerms(
        _ pages: [SearchPage], references pageReference: [Int], tokenizer: SearchTokenizer, lineTerms: Set<String>, into texts: inout [String],
        logs: inout (text: String, filter: LogTermFilter, records: Int)?, cards: inout [(term: String, records: [Int32])], layout: inout SearchIndexLayout,
        memo: inout SearchIndexMemo,
        until cancelled: @Sendable () -> Bool, sharing: SearchIndexSharing?
    ) -> Bool {
        var chunks: [SearchIndexChunk] = []
        var held = [Bool](repeating: false, count: pages.count)
        if let shared = sharing?.chunks(for: pages, references: pageReference, tokenizer: tokenizer, until: cancelled) { (chunks, held) = shared }
        let own = pages.indices.filter { !held[$0] && pageReference[$0] >= 0 }.map { (page: $0, reference: pageReference[$0]) }
        guard let ownChunks = score(pages, own, tokenizer: tokenizer, until: cancelled) else { return false }
        chunks += ownChunks
        // Words as written whose term is their stem, so the browser needs no stemmer: it looks
        // the typed word up here. Stop words have none and are found nowhere.
        var formsByBucket = [[String: String]](repeating: [:], count: SearchIndexLayout.termBuckets)
        for chunk in chunks {
            for (word, stem) in chunk.vocabulary.forms { formsByBucket[SearchIndexLayout.termBucket(of: word)][word] = stem }
            for (number, word) in chunk.vocabulary.formWords.enumerated() { memo.formPages[word, default: 0] += Int(chunk.vocabulary.formPages[number]) }
        }
        // Each term's line made once, whatever the shard count: a count is judged by the sizes
        // of the shards it would make, and only the one chosen is written out.
        var buckets = Self.bucketLines(chunks: chunks, forms: formsByBucket, cardsOver: layout.cardShards > 0 ? layout.cardMinimum : nil)
        if cancelled() { return false }
        // A start over budget alone is cut by a character more (`SearchIndexSplit`).
        memo.split = SearchIndexSplit.starts(buckets)
        let split = Set(memo.split.keys)
        buckets = SearchIndexSplit.rebucketed(buckets, split: split)
        // More shards while one is over budget and splitting still shrinks the largest.
        var largest = Self.largestShard(buckets, count: layout.termShards)
        while layout.termShards < SearchIndexLayout.termBuckets, largest > SearchIndexLayout.termShardBudget {
            let splitLargest = Self.largestShard(buckets, count: layout.termShards * 2)
            guard splitLargest * 10 < largest * 9 else { break }
            (layout.termShards, largest) = (layout.termShards * 2, splitLargest)
        }
        memo.termShards = layout.termShards
        for (number, bucket) in buckets.enumerated() {
            memo.frequentTerms.merge(bucket.frequent) { first, _ in first }
            memo.buckets[4 * number] += bucket.lineBytes
            memo.buckets[4 * number + 1] += bucket.lines.count
            memo.buckets[4 * number + 2] += bucket.formBytes
            memo.buckets[4 * number + 3] += bucket.forms.count
        }
        let termShards = Self.termShardTexts(buckets, count: layout.termShards)
        let logFile = Self.logFile(
            chunks: chunks, lineTerms: lineTerms, cardsOver: layout.cardShards > 0 ? layout.cardMinimum : nil,
            siteCount: { Self.siteCount(of: $0, in: buckets, split: split) })
        memo.frequentLogTerms = logFile?.frequent ?? [:]
        memo.logTermsFrom = logFile?.from ?? 1
        memo.logPostingsPerTerm = logFile?.perTerm ?? postingsPerTerm
        (texts, logs) = (termShards, logFile.map { ($0.text, $0.filter, $0.records) })
        cards = buckets.flatMap(\.cards) + (logFile?.cards ?? [])
        return true
    }

    /// `items`' pages scored, each page's records numbered from its `reference`, in chunks
    /// that each have their own vocabulary: one per core, as every chunk holds a copy of the
    /// words it met (tens of megabytes on a large site). Nil once `cancelled`.
    static func score(
        _ pages: [SearchPage], _ items: [(page: Int, reference: Int)], tokenizer: SearchTokenizer, until cancelled: @Sendable () -> Bool
    ) -> [SearchIndexChunk]? {
        let chunkCount = min(items.count, Cores.count)
        let ranges = (0..<chunkCount).map { chunk in (chunk * items.count / chunkCount)..<((chunk + 1) * items.count / chunkCount) }
        let chunks: [SearchIndexChunk] = ranges.concurrentMap { range in
            var chunk = SearchIndexChunk(tokenizer: tokenizer)
            for position in range {
                if position % 64 == 0, cancelled() { break }
                chunk.add(pages[items[position].page], reference: items[position].reference)
            }
            chunk.sortBucketsByTerm()
            return chunk
        }
        return cancelled() ? nil : chunks
    }

    /// One term bucket as its shard writes it: each term's line (`termLine`), sorted by term,
    /// its words' forms, and what a later patch needs of it (`SearchIndexMemo`).
    struct BucketLines: Sendable {
        var lines: [(term: String, line: String)]
        var frequent: [String: [Int64]]
        var forms: [String: String]
        var lineBytes: Int
        var formBytes: Int
        /// The records with cards of each term that has them (`SearchIndexCards.carded`).
        var cards: [(term: String, records: [Int32])]
    }

    /// Every term bucket's lines, from every chunk's postings in it.
    /// `cardsOver`: the records a term is on more than to have cards, nil for none.
    static func bucketLines(chunks: [SearchIndexChunk], forms: [[String: String]], cardsOver minimum: Int? = nil) -> [BucketLines] {
        Array(0..<SearchIndexLayout.termBuckets).concurrentMap { bucketNumber in
            var byTerm: [String: [(reference: Int32, impact: UInt8)]] = [:]
            for chunk in chunks {
                let bucket = chunk.buckets[bucketNumber]
                var start = 0
                while start < bucket.count {
                    var end = start
                    while end < bucket.count, bucket[end].term == bucket[start].term { end += 1 }
                    byTerm[chunk.vocabulary.terms[Int(bucket[start].term)], default: []] += bucket[start..<end].map { ($0.reference, $0.impact) }
                    start = end
                }
            }
            let terms = termLines(byTerm)
            let cards = SearchIndexCards.carded(byTerm, site: minimum)
            return BucketLines(
                lines: terms.lines, frequent: terms.frequent, forms: forms[bucketNumber], lineBytes: terms.lines.reduce(0) { $0 + $1.line.utf8.count },
                formBytes: forms[bucketNumber].reduce(0) { $0 + formPair($1.key, $1.value).utf8.count }, cards: cards)
        }
    }

    /// The size of the largest of `count` term shards' texts (`termShardTexts`), without making them.
    static func largestShard(_ buckets: [BucketLines], count: Int) -> Int {
        (0..<count).map { shard in
            var (lineBytes, lines, formBytes, forms) = (0, 0, 0, 0)
            for bucket in stride(from: shard, to: buckets.count, by: count) {
                (lineBytes, lines) = (lineBytes + buckets[bucket].lineBytes, lines + buckets[bucket].lines.count)
                (formBytes, forms) = (formBytes + buckets[bucket].formBytes, forms + buckets[bucket].forms.count)
            }
            // `{line,\nline}` `,` `{pair,pair}`
            return 2 + lineBytes + 2 * max(0, lines - 1) + 1 + 2 + formBytes + max(0, forms - 1)
        }.max() ?? 0
    }

    /// Each of `count` term shards as `{terms},{forms}`: the buckets whose number divided by
    /// `count` leaves the shard's.
    static func termShardTexts(_ buckets: [BucketLines], count: Int) -> [String] {
        Array(0..<count).concurrentMap { shard in
            var lines: [(term: String, line: String)] = []
            var forms: [String: String] = [:]
            for bucket in stride(from: shard, to: buckets.count, by: count) {
                lines += buckets[bucket].lines
                forms.merge(buckets[bucket].forms) { first, _ in first }
            }
            lines.sort { $0.term < $1.term }
            return "{" + lines.map(\.line).joined(separator: ",\n") + "}," + formObject(forms)
        }
    }

    /// `{terms},{forms}` of the terms pages have in their `log_patterns`, postings of those
    /// pages only: a pasted log line's many words are looked up in this one file; the filter of
    /// its words the entry carries; the count of those pages' records that have log terms,
    /// among which the browser weighs a term's rarity, and each term's count over the site
    /// (`{counts}` after the forms: a word rare in log lines but common on the site, `nginx` in
    /// a question's framing, weighs as common); and its terms' cards, which rank those pages alone
    /// (`SearchIndexCards.logKey`). Nil when no page has log lines. Over
    /// `SearchIndexLayout.logFileBudget`, its lines keep fewer postings (`logPostingsPerTerm`:
    /// a word of thousands of log lines ranks by its best), then the terms on the fewest log
    /// records leave it, a count at a time, the lines' plain words (`lineTerms`) last
    /// (`from`: the count under which terms left, 1 when none did): on a large site they are
    /// mostly one page's names (a host, a socket), and the browser looks a line's word the file
    /// lacks up in its term shard.
    private static func logFile(
        chunks: [SearchIndexChunk], lineTerms: Set<String>, cardsOver minimum: Int?, siteCount: (String) -> Int?
    ) -> (
        text: String, filter: LogTermFilter, records: Int, frequent: [String: [Int64]], from: Int, perTerm: Int, cards: [(term: String, records: [Int32])]
    )? {
        var byTerm: [String: [(reference: Int32, impact: UInt8)]] = [:]
        for chunk in chunks {
            for posting in chunk.logPostings { byTerm[chunk.vocabulary.terms[Int(posting.term)], default: []].append((posting.reference, posting.impact)) }
        }
        guard !byTerm.isEmpty else { return nil }
        // A log term's rarity is among these, the terms left to the term shards' too.
        let records = Set(byTerm.values.joined().map(\.reference)).count
        var allForms: [String: String] = [:]
        for chunk in chunks {
            for (word, stem) in chunk.vocabulary.forms where byTerm[stem] != nil { allForms[word] = stem }
        }
        let counts = Set(byTerm.values.map(\.count)).sorted()
        // Lines' plain words (`Pass delivery abandoned`, not a host's name) stay while terms on
        // fewer records go, and go last: a pasted line is then read from this file alone. Only
        // the first pass tries the first level, which keeps every term either way.
        let passes = lineTerms.isEmpty ? [false] : [true, false]
        let cuts = passes.enumerated().flatMap { pass, keepsLines in
            counts.enumerated().filter { level, _ in pass == 0 || level > 0 }.flatMap { level, from in
                logPostingsPerTerm.map { (from: level == 0 ? 1 : from, perTerm: $0, keepsLines: keepsLines) }
            }
        }
        for (number, cut) in cuts.enumerated() {
            let kept = cut.from == 1 ? byTerm : byTerm.filter { $0.value.count >= cut.from || cut.keepsLines && lineTerms.contains($0.key) }
            let forms = cut.from == 1 ? allForms : allForms.filter { kept[$0.value] != nil }
            let terms = termLines(kept, perTerm: cut.perTerm)
            let text = "{" + terms.lines.map(\.line).joined(separator: ",\n") + "}," + formObject(forms)
            guard text.utf8.count <= SearchIndexLayout.logFileBudget || number == cuts.count - 1 else { continue }
            let lines = minimum == nil ? nil : SearchIndexCards.logLines(kept.values.map { best($0, count: cut.perTerm) })
            let cards = SearchIndexCards.carded(kept, key: SearchIndexCards.logKey, site: minimum, perTerm: cut.perTerm, logLines: lines)
            // Beside the budget: a count changes with any page's text, the terms kept do not.
            let siteCounts = terms.lines.compactMap { term, _ in siteCount(term).map { (term, $0) } }
            return (
                text + "," + SearchIndexTermFile.countObject(siteCounts), LogTermFilter(words: Set(kept.keys).union(forms.keys)), records, terms.frequent,
                cut.from, cut.perTerm, cards
            )
        }
        return nil
    }

    /// A term's count of records over the site, its line's first number; nil without a line.
    static func siteCount(of term: String, in buckets: [BucketLines], split: Set<String> = []) -> Int? {
        let lines = buckets[SearchIndexLayout.termBucket(of: term, split: split)].lines
        let index = lines.partitionPoint { $0.term >= term }
        guard index < lines.count, lines[index].term == term else { return nil }
        return SearchIndexTermFile.numbers(of: lines[index].line)?.first
    }

    /// Each term's line (`termLine`: best postings first), sorted by term; and the best
    /// `SearchIndexMemo.keptPerTerm` postings of each term whose line leaves some out.
    private static func termLines(_ byTerm: [String: [(reference: Int32, impact: UInt8)]], perTerm: Int = postingsPerTerm) -> (
        lines: [(term: String, line: String)], frequent: [String: [Int64]]
    ) {
        var frequent: [String: [Int64]] = [:]
        let lines = byTerm.sorted(by: { $0.key < $1.key }).map { term, postings in
            var best = Self.best(postings, count: postings.count > perTerm ? 2 * perTerm : perTerm)
            if postings.count > perTerm {
                frequent[term] = best.map { Int64($0.reference) << 8 | Int64($0.impact) }
                best = Array(best.prefix(perTerm))
            }
            return (term, termLine(term, count: postings.count, best: best))
        }
        return (lines, frequent)
    }

    /// `"term":[documentFrequency,reference,impact,…]`.
    static func termLine(_ term: String, count: Int, best: some Sequence<(reference: Int32, impact: UInt8)>) -> String {
        var line = literal(term) + ":[\(count)"
        for posting in best { line += ",\(posting.reference),\(posting.impact)" }
        return line + "]"
    }

    /// A record's impact for a term, as a term's line lists them.
    typealias Ranked = (reference: Int32, impact: UInt8)

    /// The order of a term's line: highest impact first and, at equal impact, lowest reference.
    static func ranksBefore(_ first: Ranked, _ second: Ranked) -> Bool {
        (first.impact, second.reference) > (second.impact, first.reference)
    }

    /// The `count` best postings, highest impact first and, at equal impact, lowest reference
    /// first: what sorting them all and keeping the first `count` gives, without sorting the
    /// tens of thousands a common word has. A histogram of the impacts (one byte) finds the
    /// lowest impact that is kept; only the postings at that impact are sorted, by reference.
    static func best(_ postings: [Ranked], count: Int) -> [Ranked] {
        let order = ranksBefore
        guard postings.count > count else { return postings.sorted(by: order) }
        var histogram = [Int](repeating: 0, count: 256)
        for posting in postings { histogram[Int(posting.impact)] += 1 }
        var lowest = 255
        var above = 0
        while above + histogram[lowest] < count {
            above += histogram[lowest]
            lowest -= 1
        }
        var kept = postings.filter { Int($0.impact) > lowest }
        let tied = postings.compactMap { Int($0.impact) == lowest ? $0.reference : nil }.sorted()
        kept += tied.prefix(count - above).map { (reference: $0, impact: UInt8(lowest)) }
        return kept.sorted(by: order)
    }

    /// Text kept for a result's excerpt: enough for two of them, cut at a word. Keeping whole
    /// sections would make the doc shards as large as the knowledge base itself.
    static let excerptSourceLength = 400

    static func excerptSource(_ text: String) -> String {
        // Characters are counted without walking graphemes where bytes tell: no more bytes
        // than the length, or a start of ASCII without "\r" (where "\r\n" is one character).
        if text.utf8.count <= excerptSourceLength { return text }
        let head = text.utf8.prefix(excerptSourceLength + 1)
        if head.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
            let cut = head.prefix(excerptSourceLength)
            return String(Substring(cut[..<(cut.lastIndex(of: UInt8(ascii: " ")) ?? cut.endIndex)]))
        }
        let cut = text.prefix(excerptSourceLength)
        guard cut.endIndex < text.endIndex else { return text }
        return String(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)])
    }

    /// `{"word":"stem",…}`.
    private static func formObject(_ forms: [String: String]) -> String {
        "{" + forms.sorted { $0.key < $1.key }.map { formPair($0.key, $0.value) }.joined(separator: ",") + "}"
    }

    /// `"word":"stem"`.
    static func formPair(_ word: String, _ stem: String) -> String { literal(word) + ":" + literal(stem) }

    /// `[url, title, [codes], [[anchor, section title, text], …]]`; record 0 is the page's own text.
    static func pageArray(_ page: SearchPage) -> String { "[" + literal(page.url) + "," + pageTail(page) }

    /// `pageArray` after the URL: the same for one source in every language (`SearchIndexSharing`).
    static func pageTail(_ page: SearchPage) -> String {
        let body = page.body
        let records = (0...min(body.sections.count, SearchIndexLayout.recordsPerPage - 1)).map { number in
            let record = excerptRecord(number, of: body)
            return literals([record.anchor, record.title, record.text])
        }
        return "\(literal(page.title)),[\(page.codes.map(String.init).joined(separator: ","))],[\(records.joined(separator: ","))]]"
    }

    /// Record `number` of a page as a page shard keeps it (and a card, `SearchIndexCards`):
    /// record 0 is the page's own text, then its sections.
    static func excerptRecord(_ number: Int, of body: (text: String, sections: [SearchPage.Section])) -> (anchor: String, title: String, text: String) {
        guard number > 0, number <= body.sections.count else { return ("", "", excerptSource(body.text)) }
        let section = body.sections[number - 1]
        return (section.anchor, section.title, excerptSource(section.text))
    }

    /// A string literal in the index's script files.
    static func literal(_ text: String) -> String { JSONString.quoted(text, .script) }

    private static func literals(_ texts: [String]) -> String {
        "[" + texts.map(literal).joined(separator: ",") + "]"
    }
}
