/// Some pages of one language, scored: every (term, record) with its impact, in the term
/// bucket it goes to (`SearchIndexLayout.termBucket`). Terms are numbered within the chunk, so
/// scoring counts in arrays and each word is hashed once, however often it occurs.
struct SearchIndexChunk: Sendable {
    struct Vocabulary: Sendable {
        /// Term by number.
        var terms: [String] = []
        var bucketOfTerm: [Int] = []
        /// Words as written whose term differs (`connections` → `connect`).
        var forms: [String: String] = [:]
        /// Those words by number, and how many of the chunk's pages have each: a later patch
        /// of the index (`SearchIndexPatch`) drops a word's form when its last page does.
        var formWords: [String] = []
        var formPages: [Int32] = []
        fileprivate var numberOfWord = SearchWordTable<WordNumbers>()
        fileprivate var numberOfTerm: [String: Int32] = [:]
    }

    /// A word's term number (-1 for none) and form number (-1 when the word is its term).
    fileprivate struct WordNumbers: Sendable {
        var term: Int32
        var form: Int32
    }

    let tokenizer: SearchTokenizer
    private(set) var vocabulary = Vocabulary()
    private(set) var buckets: [[SearchIndexBuilder.Posting]]
    /// The postings of pages' terms that are in their `log_patterns`, with the page's impact:
    /// the log file (`l.js`) a pasted log line is matched against first.
    private(set) var logPostings: [SearchIndexBuilder.Posting] = []
    private var recordLogTerms = Set<Int32>()
    // Scratch space, by term number, reset after each field and record.
    private var fieldCount: [Int32] = []
    private var fieldTerms: [Int32] = []
    private var recordScore: [Double] = []
    private var recordTerms: [Int32] = []
    private var tokens: [Int32] = []
    /// By form number, the last page that had the word: each page counts once.
    private var formLastPage: [Int32] = []
    private var pageNumber: Int32 = 0

    init(tokenizer: SearchTokenizer) {
        self.tokenizer = tokenizer
        buckets = Array(repeating: [], count: SearchIndexLayout.termBuckets)
    }

    /// Each bucket's postings by term (then reference): once, for however many shard counts the
    /// builder tries.
    mutating func sortBucketsByTerm() {
        for index in buckets.indices { buckets[index].sort { $0.bits < $1.bits } }
    }

    /// The postings, by bucket and of log terms, handed over and let go of here, with what only
    /// scoring reads (the word lookups, the scratch space): a chunk kept for later languages
    /// (`SearchIndexSharing`) keeps its vocabulary, its postings on disk meanwhile.
    mutating func takePostings() -> (buckets: [[SearchIndexBuilder.Posting]], logs: [SearchIndexBuilder.Posting]) {
        defer {
            buckets = Array(repeating: [], count: SearchIndexLayout.termBuckets)
            logPostings = []
            vocabulary.numberOfWord = SearchWordTable()
            vocabulary.numberOfTerm = [:]
            (fieldCount, recordScore, formLastPage) = ([], [], [])
        }
        return (buckets, logPostings)
    }

    /// Postings `takePostings` handed over, back in place.
    mutating func restore(buckets: [[SearchIndexBuilder.Posting]], logs: [SearchIndexBuilder.Posting]) {
        (self.buckets, logPostings) = (buckets, logs)
    }

    /// Each record's reference moved from its slot's to the page's: record `slot ×
    /// recordsPerPage + n` becomes `references[slot] × recordsPerPage + n`
    /// (`SearchIndexSharing`). Each term's postings stay together, all a term shard needs: its
    /// lines rank them by impact and reference themselves, so the buckets are not sorted again.
    mutating func move(to references: [Int32]) {
        let perPage = Int32(SearchIndexLayout.recordsPerPage)
        func moved(_ posting: SearchIndexBuilder.Posting) -> SearchIndexBuilder.Posting {
            let record = posting.reference
            return .init(term: posting.term, reference: references[Int(record / perPage)] * perPage + record % perPage, impact: posting.impact)
        }
        for bucket in buckets.indices {
            for index in buckets[bucket].indices { buckets[bucket][index] = moved(buckets[bucket][index]) }
        }
        for index in logPostings.indices { logPostings[index] = moved(logPostings[index]) }
    }

    /// The page's record (title, codes, headings, log lines, tags, text) and one per section
    /// (heading, text).
    mutating func add(_ page: SearchPage, reference: Int) {
        let (text, sections) = page.body
        pageNumber += 1
        add([page.title] + page.aliases, .title)
        add(page.codes.flatMap { ["\($0)", "\($0 / 100)xx"] }, .codes)
        add(sections.map(\.title), .headings)
        add(page.logPatterns, .logs)
        add(page.tags, .tags)
        add([text], .text)
        finishRecord(reference * SearchIndexLayout.recordsPerPage)
        for (number, section) in sections.prefix(SearchIndexLayout.recordsPerPage - 1).enumerated() {
            add([section.title], .headings)
            add([section.text], .text)
            finishRecord(reference * SearchIndexLayout.recordsPerPage + number + 1)
        }
    }

    private mutating func add(_ text: String, _ field: SearchIndexBuilder.Field) { add([text], field) }

    /// A field's terms, each weighted and saturated: text as BM25 does against a fixed length
    /// (so one page's edit changes no other page's scores), short fields by count alone.
    private mutating func add(_ texts: [String], _ field: SearchIndexBuilder.Field) {
        tokens.removeAll(keepingCapacity: true)
        for text in texts {
            tokenizer.forEachWord(
                in: text, plain: { count(numbers(of: $0)) },
                other: { word in
                    var word = word
                    word.withUTF8 { count(numbers(of: $0)) }
                })
        }
        if fieldCount.count < vocabulary.terms.count {
            let missing = vocabulary.terms.count - fieldCount.count
            fieldCount += repeatElement(0, count: missing)
            recordScore += repeatElement(0, count: missing)
        }
        for number in tokens {
            if fieldCount[Int(number)] == 0 { fieldTerms.append(number) }
            fieldCount[Int(number)] += 1
        }
        let lengthFactor = 1.2 * (0.25 + 0.75 * Double(tokens.count) / 100)
        if field == .logs { recordLogTerms.formUnion(fieldTerms) }
        for number in fieldTerms {
            let tf = Double(fieldCount[Int(number)])
            let saturated = field == .text ? tf * 2.2 / (tf + lengthFactor) : tf * 2 / (tf + 1)
            if recordScore[Int(number)] == 0 { recordTerms.append(number) }
            recordScore[Int(number)] += field.weight * saturated
            fieldCount[Int(number)] = 0
        }
        fieldTerms.removeAll(keepingCapacity: true)
    }

    /// A word of the field being added: its term's place, its form's page.
    private mutating func count(_ numbers: WordNumbers) {
        if numbers.term >= 0 { tokens.append(numbers.term) }
        if numbers.form >= 0, formLastPage[Int(numbers.form)] != pageNumber {
            formLastPage[Int(numbers.form)] = pageNumber
            vocabulary.formPages[Int(numbers.form)] += 1
        }
    }

    /// Impacts scaled to 1…255.
    private mutating func finishRecord(_ reference: Int) {
        for number in recordTerms {
            let impact = UInt8(max(1, min(255, Int((recordScore[Int(number)] * 4).rounded()))))
            buckets[vocabulary.bucketOfTerm[Int(number)]].append(.init(term: number, reference: Int32(reference), impact: impact))
            if recordLogTerms.contains(number) { logPostings.append(.init(term: number, reference: Int32(reference), impact: impact)) }
            recordScore[Int(number)] = 0
        }
        recordTerms.removeAll(keepingCapacity: true)
        recordLogTerms.removeAll(keepingCapacity: true)
    }

    /// The word's term number, or -1 for a stop word (and for a new term past the tens of
    /// millions a posting can number: a chunk's text would be gigabytes first); and its form
    /// number, or -1 when it has none.
    private mutating func numbers(of bytes: UnsafeBufferPointer<UInt8>) -> WordNumbers {
        if let numbers = vocabulary.numberOfWord.value(for: bytes) { return numbers }
        let numbers = numbers(ofNew: String(decoding: bytes, as: UTF8.self))
        vocabulary.numberOfWord.insert(numbers, for: bytes)
        return numbers
    }

    private mutating func numbers(ofNew word: String) -> WordNumbers {
        var number: Int32 = -1
        var form: Int32 = -1
        if let term = tokenizer.term(forWord: word) {
            if let known = vocabulary.numberOfTerm[term] {
                number = known
            } else if vocabulary.terms.count < SearchIndexBuilder.Posting.termLimit {
                number = Int32(vocabulary.terms.count)
                vocabulary.numberOfTerm[term] = number
                vocabulary.terms.append(term)
                vocabulary.bucketOfTerm.append(SearchIndexLayout.termBucket(of: term))
            }
            if number >= 0, term != word {
                vocabulary.forms[word] = term
                form = Int32(vocabulary.formWords.count)
                vocabulary.formWords.append(word)
                vocabulary.formPages.append(0)
                formLastPage.append(0)
            }
        }
        return WordNumbers(term: number, form: form)
    }
}
