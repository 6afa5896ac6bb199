import DetourDiagnostics
import Foundation

/// Writes one language's search index (see `SearchIndexLayout` for its files). Each record (a
/// page, or one of its sections) scores each of its terms once, at build time, by the fields
/// the term is in; the browser adds how rare the term is. A term keeps its best-scoring
/// postings only: enough to rank, and a frequent word costs no more to load than a rare one.
public enum SearchIndexBuilder {
    public static let postingsPerTerm = 200

    /// Field weights: title > codes > headings > log lines > tags > text.
    enum Field: Int, CaseIterable {
        case title, codes, headings, logs, tags, text
        var weight: Double { [10, 8, 5, 4, 3, 1][rawValue] }
    }

    struct Posting {
        var shard: Int
        var term: String
        var reference: Int
        var impact: Int
    }

    /// Files relative to the language's index folder, with their contents.
    /// `languages`: every language of the site, for a query that finds nothing in this one.
    public static func build(_ pages: [SearchPage], language: String, languages: [String]) -> [(path: String, contents: String)] {
        let records = pages.reduce(0) { $0 + 1 + min($1.sections.count, SearchIndexLayout.recordsPerPage - 1) }
        let layout = SearchIndexLayout(pages: pages.count, records: records)
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

        // Tokenize in chunks, each with its own cache of stems.
        let chunkCount = min(pages.count, ProcessInfo.processInfo.activeProcessorCount * 8)
        let chunks = (0..<chunkCount).map { chunk in (chunk * pages.count / chunkCount)..<((chunk + 1) * pages.count / chunkCount) }
        let tokenized: [(postings: [Posting], stems: [String: String])] = chunks.concurrentMap { range in
            var stems: [String: String] = [:]
            var found: [Posting] = []
            for index in range where pageReference[index] >= 0 {
                found += Self.postings(of: pages[index], reference: pageReference[index], tokenizer: tokenizer, layout: layout, stems: &stems)
            }
            return (found.sorted { $0.shard < $1.shard }, stems)
        }
        let postings = tokenized.map(\.postings)
        // Words as written whose term is their stem, so the browser needs no stemmer: it looks
        // the typed word up here. Stop words have none and are found nowhere.
        var formsByShard = [[String: String]](repeating: [:], count: layout.termShards)
        for (_, stems) in tokenized {
            for (word, stem) in stems where !stem.isEmpty && stem != word { formsByShard[layout.termShard(of: word)][word] = stem }
        }
        let forms = formsByShard

        let termShards: [String] = Array(0..<layout.termShards).concurrentMap { shard in
            var byTerm: [String: [(reference: Int, impact: Int)]] = [:]
            for list in postings {
                var low = 0, high = list.count
                while low < high {
                    let middle = (low + high) / 2
                    if list[middle].shard < shard { low = middle + 1 } else { high = middle }
                }
                while low < list.count, list[low].shard == shard {
                    byTerm[list[low].term, default: []].append((list[low].reference, list[low].impact))
                    low += 1
                }
            }
            return Self.termObject(byTerm) + "," + Self.formObject(forms[shard])
        }
        let docShardTexts: [String] = docShardMembers.concurrentMap { members in
            "[" + members.map { Self.pageArray(pages[$0]) }.joined(separator: ",\n") + "]"
        }

        var entry = "{\"records\":\(records),\"termShards\":\(layout.termShards),\"languages\":\(JavaScriptLiteral.strings(languages))"
        let codes = pages.indices.compactMap { index in pages[index].definesStatus.map { "\"\($0)\":\(pageReference[index])" } }
        entry += ",\"codes\":{" + codes.joined(separator: ",") + "}"
        if layout.isSingleFile { entry += ",\"terms\":[\(termShards[0])],\"docs\":\(docShardTexts[0])" }
        entry += "}"
        var files = [(path: "index.js", contents: "detourSearch.entry(\(JavaScriptLiteral.string(language)),\(entry));\n")]
        guard !layout.isSingleFile else { return files }
        for (shard, text) in termShards.enumerated() where text != "{},{}" {
            files.append(("t\(shard).js", "detourSearch.terms(\(JavaScriptLiteral.string(language)),\(shard),\(text));\n"))
        }
        for (shard, text) in docShardTexts.enumerated() where !docShards[shard].isEmpty {
            files.append(("d\(shard).js", "detourSearch.docs(\(JavaScriptLiteral.string(language)),\(shard),\(text));\n"))
        }
        return files
    }

    /// Every (term, record) of a page with its impact: the weighted, saturated count of the
    /// term in each field, scaled to 1…255.
    private static func postings(of page: SearchPage, reference: Int, tokenizer: SearchTokenizer, layout: SearchIndexLayout, stems: inout [String: String]) -> [Posting] {
        var records: [[Field: [String]]] = []
        var pageFields: [Field: [String]] = [
            .title: tokenizer.terms(page.title, stems: &stems),
            .codes: page.codes.flatMap { ["\($0)", "\($0 / 100)xx"] },
            .headings: page.sections.flatMap { tokenizer.terms($0.title, stems: &stems) },
            .logs: page.logPatterns.flatMap { tokenizer.terms($0, stems: &stems) },
            .tags: page.tags.flatMap { tokenizer.terms($0, stems: &stems) },
        ]
        pageFields[.text] = tokenizer.terms(page.text, stems: &stems)
        records.append(pageFields)
        for section in page.sections.prefix(SearchIndexLayout.recordsPerPage - 1) {
            records.append([.headings: tokenizer.terms(section.title, stems: &stems), .text: tokenizer.terms(section.text, stems: &stems)])
        }
        var postings: [Posting] = []
        for (number, fields) in records.enumerated() {
            var score: [String: Double] = [:]
            for (field, terms) in fields {
                var counts: [String: Int] = [:]
                for term in terms { counts[term, default: 0] += 1 }
                for (term, count) in counts {
                    let tf = Double(count)
                    // Text saturates with length as BM25 does (against a fixed length, so one
                    // page's edit changes no other page's scores); short fields by count alone.
                    let saturated = field == .text
                        ? tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * Double(terms.count) / 100))
                        : tf * 2 / (tf + 1)
                    score[term, default: 0] += field.weight * saturated
                }
            }
            for (term, value) in score {
                let impact = max(1, min(255, Int((value * 4).rounded())))
                postings.append(Posting(shard: layout.termShard(of: term), term: term, reference: reference * SearchIndexLayout.recordsPerPage + number, impact: impact))
            }
        }
        return postings
    }

    /// `{"term":[documentFrequency,reference,impact,…]}`, terms sorted, best postings first.
    private static func termObject(_ byTerm: [String: [(reference: Int, impact: Int)]]) -> String {
        var out = "{"
        for (number, (term, postings)) in byTerm.sorted(by: { $0.key < $1.key }).enumerated() {
            let best = postings.sorted { ($0.impact, $1.reference) > ($1.impact, $0.reference) }.prefix(postingsPerTerm)
            if number > 0 { out += ",\n" }
            out += JavaScriptLiteral.string(term) + ":[\(postings.count)"
            for posting in best { out += ",\(posting.reference),\(posting.impact)" }
            out += "]"
        }
        return out + "}"
    }

    /// `{"word":"stem",…}`.
    private static func formObject(_ forms: [String: String]) -> String {
        "{" + forms.sorted { $0.key < $1.key }.map { JavaScriptLiteral.string($0.key) + ":" + JavaScriptLiteral.string($0.value) }.joined(separator: ",") + "}"
    }

    /// `[url, title, [codes], [[anchor, section title, text], …]]`; record 0 is the page's own text.
    private static func pageArray(_ page: SearchPage) -> String {
        let records = [JavaScriptLiteral.strings(["", "", page.text])] + page.sections.prefix(SearchIndexLayout.recordsPerPage - 1).map {
            JavaScriptLiteral.strings([$0.anchor, $0.title, $0.text])
        }
        return "[\(JavaScriptLiteral.string(page.url)),\(JavaScriptLiteral.string(page.title)),[\(page.codes.map(String.init).joined(separator: ","))],[\(records.joined(separator: ","))]]"
    }
}
