import Foundation

/// Which words the log file (`l.js`) holds, as a Bloom filter the index's entry carries: the
/// browser reads a query made of them (a pasted log line, or a fragment with a number such as
/// `503 217 - - sQ--`) from that one file instead of a term shard per word, without fetching it
/// to find out. Two bits per word, at FNV-1a of the word and of the word + "!"
/// (`SearchIndexLayout.hash`, as `search.js` computes it), in ten bits per word: about three
/// words in a hundred are let through wrongly, and then the browser reads the term shards.
struct LogTermFilter {
    private(set) var bytes: [UInt8]

    init(words: some Collection<String>) {
        bytes = [UInt8](repeating: 0, count: max(8, (words.count * 10 + 7) / 8))
        for word in words {
            for position in positions(of: word) { bytes[position >> 3] |= 1 << UInt8(position & 7) }
        }
    }

    func contains(_ word: String) -> Bool {
        positions(of: word).allSatisfy { bytes[$0 >> 3] & (1 << UInt8($0 & 7)) != 0 }
    }

    /// Base64, for `atob` in the browser.
    var encoded: String { Data(bytes).base64EncodedString() }

    private func positions(of word: String) -> [Int] {
        [word, word + "!"].map { Int(SearchIndexLayout.hash($0) % UInt32(bytes.count * 8)) }
    }
}
