/// One language's index brought up to date after one page's text changed, its title, codes,
/// tags, log lines and headings as they were: the page keeps its reference, so only the lines
/// of the terms it gained, lost or scores differently change, with its forms and its doc
/// shard's line. The files are read back from the output, what they leave out comes from the
/// build's `SearchIndexMemo`, and the result is what the builder would write for the site as
/// it now is, byte for byte (the entry too, when the log file's word filter changed); a change
/// a patch cannot make so (a term file made or emptied, a different cut of the terms, a site
/// small enough for one file) gives nil, and the index is built anew.
public enum SearchIndexPatch {
    /// What a patch changes.
    public struct Patched: Sendable {
        /// The files that change, by path in the language's folder.
        public var files: [(path: String, contents: String)]
        /// The entry's object (`SearchIndexBuilder.Output.head`) before and after, when it
        /// changed: the search page carries it.
        public var entry: (old: String, new: String)?
    }

    /// What changes, with `memo` updated to match; `read` gives a file's text by its path in
    /// the language's folder.
    public static func patch(
        old: SearchPage, new: SearchPage, language: String, memo: inout SearchIndexMemo, read: @escaping (String) -> String?
    ) -> Patched? {
        guard old.url == new.url, old.title == new.title, old.aliases == new.aliases, old.codes == new.codes, old.definesStatus == new.definesStatus,
            old.tags == new.tags, old.logPatterns == new.logPatterns
        else { return nil }
        let layout = SearchIndexLayout(pages: memo.pages, records: memo.records)
        guard !(layout.isSingleFile && memo.termShards == 1) else { return nil }
        // A section more or less is a record more or less: the entry counts them, and the
        // files are cut as they were only while the counts call for the same layout.
        let records = memo.records + SearchIndexLayout.records(of: new) - SearchIndexLayout.records(of: old)
        guard SearchIndexLayout(pages: memo.pages, records: records) == layout else { return nil }
        var patch = Patch(language: language, memo: memo, read: read)
        patch.memo.records = records
        guard let patched = patch.apply(old: old, new: new, layout: layout, recordsWritten: memo.records) else { return nil }
        memo = patch.memo
        return patched
    }

    private struct Patch {
        let language: String
        var memo: SearchIndexMemo
        let read: (String) -> String?
        var termFiles: [Int: SearchIndexTermFile] = [:]
        var logFile: SearchIndexTermFile?
        /// Its lines, forms or site counts changed: it is written.
        var logFileChanged = false
        /// None was found: each changed term asks, and is not to read the disk again.
        var logFileMissing = false
        /// A form of a log term came or went: the entry's filter of the log file's words changes.
        var logFormsChanged = false
        /// A page joined or left a log term's line: how many lines list it changed, by which
        /// every log term's cards rank pages (`SearchIndexCards.logLines`).
        var logLinesMoved = false
        /// Card files read, by shard, and those whose lines changed.
        var cardFiles: [Int: [(term: String, line: String)]] = [:]
        var changedCards: Set<Int> = []
        /// Page shards read for another page's card, by shard: their pages' lines.
        var docFiles: [Int: [String]] = [:]
        /// The edited page's cards, made once.
        var pageCards: [Int32: String]?
        /// The starts the build cut by a character more, and the keys of the terms and words
        /// this patch changed, each of which must stay as the build would cut it.
        let split: Set<String>
        var touchedKeys: Set<String> = []

        init(language: String, memo: SearchIndexMemo, read: @escaping (String) -> String?) {
            self.language = language
            self.memo = memo
            self.read = read
            split = Set(memo.split.keys)
        }

        private var literalLanguage: String { SearchIndexBuilder.literal(language) }

        /// `recordsWritten`: the count of records the files were written for.
        mutating func apply(old: SearchPage, new: SearchPage, layout: SearchIndexLayout, recordsWritten: Int) -> Patched? {
            // The page's place: its line in its doc shard.
            let docShard = layout.docShard(of: old.url)
            guard var docLines = pageLines(docShard) else { return nil }
            let start = "[" + SearchIndexBuilder.literal(old.url) + ","
            guard let slot = docLines.firstIndex(where: { $0.hasPrefix(start) }), slot < SearchIndexLayout.pagesPerDocShard else { return nil }
            let reference = docShard * SearchIndexLayout.pagesPerDocShard + slot

            let tokenizer = SearchTokenizer(language: language)
            var before = SearchIndexChunk(tokenizer: tokenizer)
            before.add(old, reference: reference)
            var after = SearchIndexChunk(tokenizer: tokenizer)
            after.add(new, reference: reference)
            let records = Int32(reference * SearchIndexLayout.recordsPerPage)..<Int32((reference + 1) * SearchIndexLayout.recordsPerPage)

            // Terms whose postings for the page changed.
            let (oldPostings, newPostings) = (Self.postings(before, before.buckets.joined()), Self.postings(after, after.buckets.joined()))
            for term in Set(oldPostings.keys).union(newPostings.keys).sorted() where oldPostings[term] != newPostings[term] {
                let termBucket = SearchIndexLayout.termBucket(of: term, split: split)
                let shard = termBucket % memo.termShards
                guard loadTermFile(shard), var file = termFiles[shard] else { return nil }
                let bucket = 4 * termBucket
                let (index, found) = file.line(of: term)
                if found {
                    memo.buckets[bucket] -= file.lines[index].text.utf8.count
                    memo.buckets[bucket + 1] -= 1
                    shareChanged(term, by: -SearchIndexSplit.share(line: file.lines[index].text))
                }
                guard
                    let line = Self.patchedLine(
                        term, found ? file.lines[index].text : nil, frequent: &memo.frequentTerms, records: records, removed: oldPostings[term]?.count ?? 0,
                        added: newPostings[term] ?? [])
                else { return nil }
                switch (found, line) {
                case (true, let line?): file.lines[index].text = line
                case (true, nil): file.lines.remove(at: index)
                case (false, let line?): file.lines.insert((term, line), at: index)
                case (false, nil): break
                }
                if let line {
                    memo.buckets[bucket] += line.utf8.count
                    memo.buckets[bucket + 1] += 1
                    shareChanged(term, by: SearchIndexSplit.share(line: line))
                }
                termFiles[shard] = file
                // A log term's count over the site is its term line's.
                if loadLogFile(), var logs = logFile, logs.line(of: term).found {
                    var count: Int?
                    if let line {
                        guard let numbers = SearchIndexTermFile.numbers(of: line) else { return nil }
                        count = numbers[0]
                    }
                    if logs.setSiteCount(term, count) { (logFile, logFileChanged) = (logs, true) }
                }
            }

            // The same for the log file's terms, which the page's log lines name.
            let (oldLogs, newLogs) = (Self.postings(before, before.logPostings), Self.postings(after, after.logPostings))
            for term in Set(oldLogs.keys).union(newLogs.keys).sorted() where oldLogs[term] != newLogs[term] {
                // A file cut to its budget is cut anew by the builder.
                guard memo.logFileWhole, loadLogFile(), var file = logFile else { return nil }
                let (index, found) = file.line(of: term)
                // A log term the page's log lines name is in the file before and after.
                guard found,
                    let patched = Self.patchedLine(
                        term, file.lines[index].text, frequent: &memo.frequentLogTerms, records: records, removed: oldLogs[term]?.count ?? 0,
                        added: newLogs[term] ?? []),
                    let line = patched, let was = Self.pages(ofLine: file.lines[index].text), let now = Self.pages(ofLine: line)
                else { return nil }
                if was != now { logLinesMoved = true }
                file.lines[index].text = line
                (logFile, logFileChanged) = (file, true)
            }

            // Words as written: a form comes with its first page and goes with its last.
            let (oldForms, newForms) = (before.vocabulary.forms, after.vocabulary.forms)
            for word in Set(oldForms.keys).symmetricDifference(newForms.keys).sorted() {
                let gained = newForms[word] != nil
                let pages = memo.formPages[word, default: 0] + (gained ? 1 : -1)
                guard pages >= 0 else { return nil }
                memo.formPages[word] = pages > 0 ? pages : nil
                guard pages == (gained ? 1 : 0) else { continue }
                let stem = (newForms[word] ?? oldForms[word])!
                // The log file lists the forms of its terms, and the entry a filter of them.
                _ = loadLogFile()
                if var file = logFile, file.line(of: stem).found {
                    guard memo.logFileWhole, file.setForm(word, stem, present: gained) else { return nil }
                    (logFile, logFormsChanged, logFileChanged) = (file, true, true)
                }
                let wordBucket = SearchIndexLayout.termBucket(of: word, split: split)
                let shard = wordBucket % memo.termShards
                guard loadTermFile(shard), var file = termFiles[shard] else { return nil }
                guard file.setForm(word, stem, present: gained) else { return nil }
                let bucket = 4 * wordBucket
                memo.buckets[bucket + 2] += (gained ? 1 : -1) * SearchIndexBuilder.formPair(word, stem).utf8.count
                memo.buckets[bucket + 3] += gained ? 1 : -1
                shareChanged(word, by: (gained ? 1 : -1) * SearchIndexSplit.share(form: word, stem))
                termFiles[shard] = file
            }

            // The builder would cut the terms as they are cut, and write each of these files.
            guard memo.settledTermShards() == memo.termShards, termFiles.values.allSatisfy({ !$0.lines.isEmpty || !$0.forms.isEmpty }),
                startsCutAsBefore()
            else { return nil }
            // Cards of the term lines, then of the log file's.
            let terms = Set(oldPostings.keys).union(newPostings.keys).sorted()
            let termLine: (Patch, String) -> String?? = { patch, term in
                patch.termFiles[SearchIndexLayout.termBucket(of: term, split: patch.split) % patch.memo.termShards].map { $0.text(of: term) }
            }
            guard patchCards(terms, key: { $0 }, changed: { oldPostings[$0] != newPostings[$0] }, line: termLine, page: new, records: records, layout: layout)
            else { return nil }
            // A page on more or fewer log lines than before may gain or lose any log term's cards.
            let moved = logLinesMoved && layout.cardShards > 0
            let logTerms = moved ? logFile?.lines.map(\.term) ?? [] : Set(oldLogs.keys).union(newLogs.keys).sorted()
            let logLine: (Patch, String) -> String?? = { patch, term in patch.logFile.map { $0.text(of: term) } }
            var ranks: [Int32: Int]?
            if layout.cardShards > 0, !logTerms.isEmpty {
                guard let lines = logLines() else { return nil }
                ranks = lines
            }
            guard
                patchCards(
                    logTerms, key: SearchIndexCards.logKey, changed: { moved || oldLogs[$0] != newLogs[$0] }, line: logLine, page: new, records: records,
                    layout: layout, logLines: ranks)
            else { return nil }
            docLines[slot] = SearchIndexBuilder.pageArray(new)
            var files = termFiles.sorted { $0.key < $1.key }.map { (path: "t\($0.key).js", contents: $0.value.text) }
            files += cardFiles.keys.sorted().filter(changedCards.contains).map { shard in
                ("c\(shard).js", SearchIndexCards.file(language: language, shard: shard, lines: cardFiles[shard]!.map(\.line)))
            }
            if let logFile, logFileChanged {
                // Grown over its budget, the builder would cut it.
                guard logFile.body.utf8.count <= SearchIndexLayout.logFileBudget else { return nil }
                files.append(("l.js", logFile.text))
            }
            files.append(("d\(docShard).js", docHead(docShard) + docLines.joined(separator: ",\n") + "]);\n"))
            var entry: (old: String, new: String)?
            if logFormsChanged || memo.records != recordsWritten {
                guard let changed = changedEntry(recordsWritten: recordsWritten, logFile: logFormsChanged ? logFile : nil) else { return nil }
                if changed.old != changed.new {
                    files.append(("index.js", "detourSearch.entry(\(literalLanguage),\(changed.new));\n"))
                    entry = changed
                }
            }
            return Patched(files: files, entry: entry)
        }

        /// The entry's object with the count of records from `recordsWritten` to the memo's,
        /// and, given the log file, the filter of its words made anew.
        private func changedEntry(recordsWritten: Int, logFile: SearchIndexTermFile?) -> (old: String, new: String)? {
            let head = "detourSearch.entry(\(literalLanguage),"
            guard let text = read("index.js"), text.hasPrefix(head), text.hasSuffix(");\n") else { return nil }
            let old = String(text.dropFirst(head.count).dropLast(3))
            let count = "{\"records\":\(recordsWritten),"
            guard old.hasPrefix(count) else { return nil }
            var new = "{\"records\":\(memo.records)," + old.dropFirst(count.count)
            if let logFile {
                let key = ",\"logs\":\""
                guard let start = new.range(of: key), let end = new[start.upperBound...].firstIndex(of: "\"") else { return nil }
                let filter = LogTermFilter(words: Set(logFile.lines.map(\.term)).union(logFile.forms.map(\.word)))
                new.replaceSubrange(start.upperBound..<end, with: filter.encoded)
            }
            return (old, new)
        }

        /// The cards of `terms` (the page's, before and after, under their `key`) as the builder
        /// would write them: a term whose postings `changed` has the best records of its patched
        /// `line` (nil when its file was not read), another keeps its records, and a card of the
        /// page's `records` is made from the `page` as it is now. False when a card file would
        /// be emptied, which the builder would not write.
        private mutating func patchCards(
            _ terms: [String], key: (String) -> String, changed: (String) -> Bool, line lineOf: (Patch, String) -> String??, page: SearchPage,
            records: Range<Int32>, layout: SearchIndexLayout, logLines: [Int32: Int]? = nil
        ) -> Bool {
            guard layout.cardShards > 0 else { return true }
            for word in terms {
                let term = key(word)
                let shard = layout.cardShard(of: term)
                if cardFiles[shard] == nil {
                    if let text = read("c\(shard).js") {
                        guard let lines = SearchIndexCards.lines(of: text, language: language, shard: shard) else { return false }
                        cardFiles[shard] = lines
                    } else {
                        cardFiles[shard] = []
                    }
                }
                var lines = cardFiles[shard]!
                let index = lines.partitionPoint { $0.term >= term }
                let found = index < lines.count && lines[index].term == term
                guard let old = found ? SearchIndexCards.cards(of: lines[index].line, term: term) : [] else { return false }
                var best: [Int32]
                if changed(word) {
                    guard let line = lineOf(self, word) else { return false }
                    best = []
                    if let line {
                        guard let read = SearchIndexTermFile.postings(of: line) else { return false }
                        best = SearchIndexCards.carded(count: read.count, line: read.postings, over: layout.cardMinimum, logLines: logLines)
                    }
                } else {
                    best = old.map(\.reference)
                    guard best.contains(where: records.contains) else { continue }
                }
                var cards: [String] = []
                for reference in best {
                    if records.contains(reference) {
                        if pageCards == nil { pageCards = SearchIndexCards.cards(references: records, page: page) }
                        cards.append(pageCards![reference]!)
                    } else if let card = old.first(where: { $0.reference == reference }) {
                        cards.append(card.card)
                    } else {
                        guard let card = otherCard(reference) else { return false }
                        cards.append(card)
                    }
                }
                let line = cards.isEmpty ? nil : SearchIndexCards.line(term: term, cards: cards)
                switch (found, line) {
                case (true, let line?): if lines[index].line != line { lines[index].line = line } else { continue }
                case (true, nil): lines.remove(at: index)
                case (false, let line?): lines.insert((term, line), at: index)
                case (false, nil): continue
                }
                guard !lines.isEmpty else { return false }
                cardFiles[shard] = lines
                changedCards.insert(shard)
            }
            return true
        }

        /// By page, how many of the patched log file's lines list it; nil without one, or when a
        /// line is not as written.
        private func logLines() -> [Int32: Int]? {
            guard let logFile else { return nil }
            var lines: [[SearchIndexBuilder.Ranked]] = []
            for line in logFile.lines {
                guard let read = SearchIndexTermFile.postings(of: line.text) else { return nil }
                lines.append(read.postings)
            }
            return SearchIndexCards.logLines(lines)
        }

        /// The pages a term line lists; nil when it is not as written.
        private static func pages(ofLine line: String) -> Set<Int32>? {
            SearchIndexTermFile.postings(of: line).map { Set($0.postings.map { $0.reference / Int32(SearchIndexLayout.recordsPerPage) }) }
        }

        /// Another page's card, from its line in its page shard.
        private mutating func otherCard(_ reference: Int32) -> String? {
            let page = Int(reference) / SearchIndexLayout.recordsPerPage
            let (shard, slot) = page.quotientAndRemainder(dividingBy: SearchIndexLayout.pagesPerDocShard)
            if docFiles[shard] == nil { docFiles[shard] = pageLines(shard) }
            guard let lines = docFiles[shard], slot < lines.count else { return nil }
            return SearchIndexCards.card(reference: reference, pageLine: lines[slot])
        }

        private func docHead(_ shard: Int) -> String { "detourSearch.docs(\(literalLanguage),\(shard),[" }

        /// Page shard `shard`'s lines, one per page; nil when it is not as the builder writes it.
        private func pageLines(_ shard: Int) -> [String]? {
            let head = docHead(shard)
            guard let text = read("d\(shard).js"), text.hasPrefix(head), text.hasSuffix("]);\n") else { return nil }
            return text.dropFirst(head.count).dropLast(4).components(separatedBy: ",\n")
        }

        /// A term's line or a word's form changed by `delta` bytes of its file: each start above
        /// it that the build cut counts them, and its key is checked before the files are written.
        private mutating func shareChanged(_ text: String, by delta: Int) {
            let key = SearchIndexLayout.termKey(of: text, split: split)
            touchedKeys.insert(key)
            guard !split.isEmpty else { return }
            let scalars = text.unicodeScalars
            for length in 2...max(2, key.unicodeScalars.count) where length <= scalars.count {
                let start = String(String.UnicodeScalarView(scalars.prefix(length)))
                if split.contains(start) { memo.split[start, default: 0] += delta }
            }
        }

        /// The build cuts a start while its terms and forms are over budget
        /// (`SearchIndexSplit.starts`): each start cut still is, and no changed term's or word's
        /// key has grown over it (its bucket's share bounds it; past that it is counted in its file).
        private func startsCutAsBefore() -> Bool {
            guard memo.split.values.allSatisfy({ $0 > SearchIndexLayout.termShardBudget }) else { return false }
            for key in touchedKeys where !split.contains(key) {
                let bucket = SearchIndexLayout.termBucket(of: key, split: split)
                let counts = memo.buckets
                guard
                    SearchIndexSplit.overBudget(
                        lineBytes: counts[4 * bucket], lines: counts[4 * bucket + 1], formBytes: counts[4 * bucket + 2], forms: counts[4 * bucket + 3])
                else { continue }
                guard let file = termFiles[bucket % memo.termShards] else { return false }
                let under = { (text: String) in text.unicodeScalars.starts(with: key.unicodeScalars) }
                let share =
                    file.lines.reduce(0) { under($1.term) ? $0 + SearchIndexSplit.share(line: $1.text) : $0 }
                    + file.forms.reduce(0) { under($1.word) ? $0 + SearchIndexSplit.share(form: $1.word, $1.stem) : $0 }
                guard share <= SearchIndexLayout.termShardBudget else { return false }
            }
            return true
        }

        /// Reads term file `shard` once; false when there is none to patch.
        private mutating func loadTermFile(_ shard: Int) -> Bool {
            if termFiles[shard] != nil { return true }
            guard let text = read("t\(shard).js"), let file = SearchIndexTermFile(text, head: "detourSearch.terms(\(literalLanguage),\(shard),") else {
                return false
            }
            termFiles[shard] = file
            return true
        }

        /// Reads the log file once; false when there is none.
        private mutating func loadLogFile() -> Bool {
            if logFile != nil { return true }
            if logFileMissing { return false }
            // The head carries the log records' count, which a patch leaves as it is (the page's
            // log lines and headings are).
            let call = "detourSearch.logs(\(literalLanguage),"
            guard let text = read("l.js"), text.hasPrefix(call), let brace = text.firstIndex(of: "{"),
                let file = SearchIndexTermFile(text, head: String(text[..<brace])), file.head.hasSuffix(","),
                Int(file.head.dropFirst(call.count).dropLast()) != nil
            else {
                logFileMissing = true
                return false
            }
            logFile = file
            return true
        }

        /// The page's postings by term, each `reference << 8 | impact`, in order.
        private static func postings(_ chunk: SearchIndexChunk, _ postings: some Sequence<SearchIndexBuilder.Posting>) -> [String: [Int64]] {
            var byTerm: [String: [Int64]] = [:]
            for posting in postings {
                byTerm[chunk.vocabulary.terms[Int(posting.term)], default: []].append(Int64(posting.reference) << 8 | Int64(posting.impact))
            }
            return byTerm.mapValues { $0.sorted() }
        }

        /// `term`'s line with the page's `removed` postings (those in `records`) replaced by
        /// `added`, nil when the term is left with none; `frequent` keeps the best postings of
        /// a term whose line cannot hold them all. Nil too, with `frequent` as it was, when the
        /// line's best are not known (more were lost than `SearchIndexMemo` kept).
        private static func patchedLine(
            _ term: String, _ line: String?, frequent: inout [String: [Int64]], records: Range<Int32>, removed: Int, added packed: [Int64]
        ) -> String?? {
            let added = packed.map { (reference: Int32($0 >> 8), impact: UInt8(truncatingIfNeeded: $0)) }
            var count = 0
            var best: [SearchIndexBuilder.Ranked] = []
            if let line {
                guard let read = SearchIndexTermFile.postings(of: line) else { return nil }
                count = read.count
                if count > SearchIndexBuilder.postingsPerTerm {
                    guard let kept = frequent[term] else { return nil }
                    best = kept.map { (Int32($0 >> 8), UInt8(truncatingIfNeeded: $0)) }
                } else {
                    best = read.postings
                    guard best.count == count else { return nil }
                }
            }
            best.removeAll { records.contains($0.reference) }
            let rest = count - removed
            // All postings but the page's are kept, or the best of them, all better than the rest.
            if best.count == rest {
                best += added
            } else if let worst = best.last {
                best += added.filter { SearchIndexBuilder.ranksBefore($0, worst) }
            } else {
                return nil
            }
            best.sort(by: SearchIndexBuilder.ranksBefore)
            let total = rest + added.count
            guard best.count == total || best.count >= SearchIndexBuilder.postingsPerTerm else { return nil }
            frequent[term] =
                total > SearchIndexBuilder.postingsPerTerm ? best.prefix(SearchIndexMemo.keptPerTerm).map { Int64($0.reference) << 8 | Int64($0.impact) } : nil
            guard total > 0 else { return .some(nil) }
            return SearchIndexBuilder.termLine(term, count: total, best: best.prefix(SearchIndexBuilder.postingsPerTerm))
        }
    }
}
