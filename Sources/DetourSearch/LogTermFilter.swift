import Foundation

/// Which words the log file (`l.js`) holds, as a Bloom filter the index's entry carries: the
/// browser reads a query made of them (a pasted log line, or a fragment with a number such as
/// `503 217 - - sQ--`) from that one file instead of a term shard per word, without fetching it
/// to find out; a second one holds the lines' plain words side by side (`pairs`), which tell a
/// short pasted line from a question. Two bits per word, at FNV-1a of the word and of the word +
/// "!" (`SearchIndexLayout.hash`, as `search.js` computes it), in ten bits per word: about three
/// words in a hundred are let through wrongly, and then the browser reads the term shards.
struct LogTermFilter {
    private(set) var bytes: [UInt8]

    init(words: some Collection<String>) {
        bytes = [UInt8](repeating: 0, count: max(8, (words.count * 10 + 7) / 8))
        for word in words {
            for position in positions(of: word) { bytes[position >> 3] |= 1 << UInt8(position & 7) }
        }
    }

    /// The filter an entry carries (`encoded`).
    init?(encoded: String) {
        guard let data = Data(base64Encoded: encoded), !data.isEmpty else { return nil }
        bytes = [UInt8](data)
    }

    func contains(_ word: String) -> Bool {
        positions(of: word).allSatisfy { bytes[$0 >> 3] & (1 << UInt8($0 & 7)) != 0 }
    }

    /// The log lines' plain words (one term, no digit: not an identifier, a number, an
    /// address), the `fillers` a query drops left out, and their pairs side by side (`pass
    /// delivery`, `delivery abandoned`; another word between them parts them), as `search.js`
    /// pairs a query's plain words: a short query whose plain neighbours are all pairs here (one
    /// pair at least, or a number) is a pasted line, read from the log file; `nginx upstream
    /// timeout`, three log words never written side by side, or `tune php-fpm config`, no two
    /// plain words side by side, is a question.
    static func plainWords(in lines: [String], tokenizer: SearchTokenizer, fillers: Set<String>) -> (words: Set<String>, pairs: Set<String>) {
        var (words, pairs) = (Set<String>(), Set<String>())
        for line in lines {
            var previous: String?
            tokenizer.forEachWordGroup(in: line) { group in
                let word = group[0]
                guard !fillers.contains(word) else { return }
                guard group.count == 1, !word.unicodeScalars.contains(where: { $0.properties.generalCategory == .decimalNumber }) else {
                    previous = nil
                    return
                }
                words.insert(word)
                if let previous { pairs.insert(previous + " " + word) }
                previous = word
            }
        }
        return (words, pairs)
    }

    /// Base64, for `atob` in the browser.
    var encoded: String { Data(bytes).base64EncodedString() }

    private func positions(of word: String) -> [Int] {
        [word, word + "!"].map { Int(SearchIndexLayout.hash($0) % UInt32(bytes.count * 8)) }
    }
}
