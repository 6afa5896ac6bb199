/// The starts whose terms a term file cannot hold: on a large site one two-letter start can
/// be more than `termShardBudget` alone (ten thousand host names under `sh`, a reference's
/// `proxy_…` under `pr`), and every query with a word there would read it. Such a start is
/// cut by one character more, and again while a longer start is over budget
/// (`SearchIndexLayout.termKey`); the entry lists the starts cut, so the browser keys a word
/// as the builder did.
enum SearchIndexSplit {
    /// A term's line's or a form's share of its file: its text and the separator after it.
    static func share(line: String) -> Int { line.utf8.count + 2 }
    static func share(form word: String, _ stem: String) -> Int { SearchIndexBuilder.formPair(word, stem).utf8.count + 1 }

    /// A bucket's terms and forms, with their separators, over budget: only such a bucket can
    /// hold a start that is. The builder counts its lines, a patch the memo's counts of them.
    static func overBudget(lineBytes: Int, lines: Int, formBytes: Int, forms: Int) -> Bool {
        lineBytes + 2 * lines + formBytes + forms > SearchIndexLayout.termShardBudget
    }

    private static func overBudget(_ bucket: SearchIndexBuilder.BucketLines) -> Bool {
        overBudget(lineBytes: bucket.lineBytes, lines: bucket.lines.count, formBytes: bucket.formBytes, forms: bucket.forms.count)
    }

    /// Every start of two characters or more whose terms and forms together are over budget,
    /// with their share, that has a term longer than itself to cut.
    static func starts(_ buckets: [SearchIndexBuilder.BucketLines]) -> [String: Int] {
        var items: [(scalars: [Unicode.Scalar], share: Int)] = []
        for bucket in buckets where overBudget(bucket) {
            for line in bucket.lines { items.append((Array(line.term.unicodeScalars), share(line: line.line))) }
            for (word, stem) in bucket.forms { items.append((Array(word.unicodeScalars), share(form: word, stem))) }
        }
        var split: [String: Int] = [:]
        var pending: [(length: Int, members: [Int])] = [(2, Array(items.indices))]
        while let (length, members) = pending.popLast() {
            // A term shorter than the start (the start above, itself a term) is not under it.
            let groups = Dictionary(grouping: members.filter { items[$0].scalars.count > length - 1 }) {
                String(String.UnicodeScalarView(items[$0].scalars.prefix(length)))
            }
            for (start, group) in groups {
                let total = group.reduce(0) { $0 + items[$1].share }
                guard total > SearchIndexLayout.termShardBudget, group.contains(where: { items[$0].scalars.count > length }) else { continue }
                split[start] = total
                pending.append((length + 1, group))
            }
        }
        return split
    }

    /// The buckets with each term and form of a `split` start moved to its key's bucket; a
    /// bucket's lines stay sorted by term, as `SearchIndexBuilder.siteCount` looks them up.
    static func rebucketed(_ buckets: [SearchIndexBuilder.BucketLines], split: Set<String>) -> [SearchIndexBuilder.BucketLines] {
        guard !split.isEmpty else { return buckets }
        var buckets = buckets
        var moved = Set<Int>()
        for number in buckets.indices where overBudget(buckets[number]) {
            var bucket = buckets[number]
            let lines = bucket.lines
            bucket.lines = []
            for line in lines {
                let target = SearchIndexLayout.termBucket(of: line.term, split: split)
                guard target != number else {
                    bucket.lines.append(line)
                    continue
                }
                buckets[target].lines.append(line)
                buckets[target].lineBytes += line.line.utf8.count
                bucket.lineBytes -= line.line.utf8.count
                if let kept = bucket.frequent.removeValue(forKey: line.term) { buckets[target].frequent[line.term] = kept }
                moved.insert(target)
            }
            for (word, stem) in bucket.forms {
                let target = SearchIndexLayout.termBucket(of: word, split: split)
                guard target != number else { continue }
                bucket.forms[word] = nil
                buckets[target].forms[word] = stem
                let bytes = SearchIndexBuilder.formPair(word, stem).utf8.count
                (bucket.formBytes, buckets[target].formBytes) = (bucket.formBytes - bytes, buckets[target].formBytes + bytes)
            }
            buckets[number] = bucket
            moved.insert(number)
        }
        for number in moved { buckets[number].lines.sort { $0.term < $1.term } }
        return buckets
    }
}
