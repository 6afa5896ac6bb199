import Foundation

/// The card files (`c<n>.js`): for each term on more than `SearchIndexLayout.cardMinimum`
/// records, its best records (`carded`) as a result shows them. The
/// browser works out from the term's line which records those are, so the results a common
/// word brings come in one card file rather than in as many page shards. The builder makes a card from the page
/// and a patch from the page shard's line, both through `card(reference:url:title:codes:record:)`,
/// so the two agree byte for byte.
enum SearchIndexCards {
    /// The records of a term's line (its postings, best first) that have cards: each page's
    /// best, for the ten pages a one-word query ranks first (the best record and three tenths
    /// of the others: 7 × best + 3 × all, then the lower page). None for a term on `minimum`
    /// records or fewer. A log file term's go first to the pages on the most of that file's
    /// lines (`logLines`): a pasted line's words rank the pages that have most of them, not the
    /// page one of them weighs most in.
    static func carded(
        count: Int, line postings: some Sequence<SearchIndexBuilder.Ranked>, over minimum: Int, logLines: [Int32: Int]? = nil
    ) -> [Int32] {
        guard count > minimum else { return [] }
        var pages: [Int32: (best: Int32, score: Int)] = [:]
        for posting in postings {
            let page = posting.reference / Int32(SearchIndexLayout.recordsPerPage)
            if let known = pages[page] {
                pages[page] = (known.best, known.score + 3 * Int(posting.impact))
            } else {
                pages[page] = (posting.reference, 10 * Int(posting.impact))
            }
        }
        let lines = { (page: Int32) in logLines?[page] ?? 0 }
        return pages.sorted { (lines($0.key), $0.value.score, $1.key) > (lines($1.key), $1.value.score, $0.key) }.prefix(SearchIndexLayout.cardsPerTerm)
            .map(\.value.best)
    }

    /// By page, how many of the log file's `lines` (each its postings) list it.
    static func logLines(_ lines: some Sequence<some Sequence<SearchIndexBuilder.Ranked>>) -> [Int32: Int] {
        var count: [Int32: Int] = [:]
        for line in lines {
            for page in Set(line.map { $0.reference / Int32(SearchIndexLayout.recordsPerPage) }) { count[page, default: 0] += 1 }
        }
        return count
    }

    /// The records with cards of each term of `byTerm` (its postings) that has them, under its
    /// `key`; none without the site's `minimum` (a site too small for cards).
    static func carded(
        _ byTerm: [String: [SearchIndexBuilder.Ranked]], key: (String) -> String = { $0 }, site minimum: Int?,
        perTerm: Int = SearchIndexBuilder.postingsPerTerm, logLines: [Int32: Int]? = nil
    ) -> [(term: String, records: [Int32])] {
        guard let minimum else { return [] }
        return byTerm.compactMap { term, postings in
            let key = key(term)
            // The count first: sorting out a term's best postings is work only a carded term needs.
            guard postings.count > minimum else { return nil }
            return (key, carded(count: postings.count, line: SearchIndexBuilder.best(postings, count: perTerm), over: minimum, logLines: logLines))
        }
    }

    /// The key of a log file term's cards, which rank the pages with log lines alone: a query
    /// the log file answers ranks by those (`!` is in no term).
    static func logKey(_ term: String) -> String { "!" + term }

    /// `[reference,url,title,[codes],anchor,section title,text]`, the text as a page shard keeps it.
    static func card(reference: Int32, url: String, title: String, codes: [Int], record: (anchor: String, title: String, text: String)) -> String {
        "[\(reference)," + [url, title].map(SearchIndexBuilder.literal).joined(separator: ",") + ",[" + codes.map(String.init).joined(separator: ",") + "],"
            + [record.anchor, record.title, record.text].map(SearchIndexBuilder.literal).joined(separator: ",") + "]"
    }

    /// The cards of `page`'s records `references`, its text read once (a page may read it
    /// anew on each `body`).
    static func cards(references: some Sequence<Int32>, page: SearchPage) -> [Int32: String] {
        let body = page.body
        var cards: [Int32: String] = [:]
        for reference in references {
            let record = SearchIndexBuilder.excerptRecord(Int(reference) % SearchIndexLayout.recordsPerPage, of: body)
            cards[reference] = card(reference: reference, url: page.url, title: page.title, codes: page.codes, record: record)
        }
        return cards
    }

    /// The card of record `reference` of the page whose page shard line is `line`
    /// (`SearchIndexBuilder.pageArray`); nil when the line is not as written.
    static func card(reference: Int32, pageLine line: String) -> String? {
        guard let page = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], page.count == 4,
            let url = page[0] as? String, let title = page[1] as? String, let codes = page[2] as? [Int], let records = page[3] as? [[String]],
            let record = records[safe: Int(reference) % SearchIndexLayout.recordsPerPage], record.count == 3
        else { return nil }
        return card(reference: reference, url: url, title: title, codes: codes, record: (record[0], record[1], record[2]))
    }

    /// `"term":[card,…]`.
    static func line(term: String, cards: [String]) -> String { SearchIndexBuilder.literal(term) + ":[" + cards.joined(separator: ",") + "]" }

    static func head(language: String, shard: Int) -> String { "detourSearch.cards(\(SearchIndexBuilder.literal(language)),\(shard),{" }

    /// A card file: its terms' lines, sorted by term.
    static func file(language: String, shard: Int, lines: [String]) -> String {
        head(language: language, shard: shard) + lines.joined(separator: ",\n") + "});\n"
    }

    /// A card file read back: its lines with their terms, in order; nil when not as written.
    /// Read byte by byte (a patch reads a card file for each of a page's words): a card's text
    /// is a literal, so a line never holds `,\n`, and a term's literal never a `"` of its own.
    static func lines(of text: String, language: String, shard: Int) -> [(term: String, line: String)]? {
        let head = head(language: language, shard: shard)
        guard text.hasPrefix(head), text.hasSuffix("});\n") else { return nil }
        let bytes = Array(text.utf8)
        let (comma, newline, quote) = (UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: "\""))
        let end = bytes.count - 4
        var lines: [(term: String, line: String)] = []
        var start = head.utf8.count
        while start < end {
            var stop = start
            while stop < end, !(bytes[stop] == comma && stop + 1 < end && bytes[stop + 1] == newline) { stop += 1 }
            guard bytes[start] == quote, let close = bytes[(start + 1)..<stop].firstIndex(of: quote), close + 2 < stop,
                bytes[close + 1] == UInt8(ascii: ":"), bytes[close + 2] == UInt8(ascii: "[")
            else { return nil }
            let literal = bytes[(start + 1)..<close]
            guard
                let term = literal.contains(UInt8(ascii: "\\"))
                    ? try? JSONSerialization.jsonObject(with: Data(bytes[start...close]), options: .fragmentsAllowed) as? String
                    : String(decoding: literal, as: UTF8.self)
            else { return nil }
            lines.append((term, String(decoding: bytes[start..<stop], as: UTF8.self)))
            start = stop + 2
        }
        return lines
    }

    /// `term`'s cards in its `line`, each with its record's reference, as `card` writes them;
    /// nil when the line is not as written.
    static func cards(of line: String, term: String) -> [(reference: Int32, card: String)]? {
        let key = SearchIndexBuilder.literal(term) + ":"
        guard line.hasPrefix(key), let cards = try? JSONSerialization.jsonObject(with: Data(line.utf8.dropFirst(key.utf8.count))) as? [[Any]] else {
            return nil
        }
        var out: [(reference: Int32, card: String)] = []
        for card in cards {
            guard card.count == 7, let reference = card[0] as? Int, let url = card[1] as? String, let title = card[2] as? String,
                let codes = card[3] as? [Int], let anchor = card[4] as? String, let section = card[5] as? String, let text = card[6] as? String
            else { return nil }
            out.append((Int32(reference), Self.card(reference: Int32(reference), url: url, title: title, codes: codes, record: (anchor, section, text))))
        }
        return out
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
