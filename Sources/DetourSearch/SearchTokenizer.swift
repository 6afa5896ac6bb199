import DetourSupport
import Foundation

/// Turns text into search terms, the same way for the index (here) and for queries
/// (`search.js`). Made for troubleshooting text:
/// - identifiers are kept whole and split into their parts: `proxy_read_timeout`,
///   `php8.2-fpm`, `ProxyErrorOverride`, `127.0.0.1:9000` are one term each and also
///   `proxy` `read` `timeout`, `php8` `php` `fpm`, `proxy` `error` `override`, …;
/// - text is lower-cased with accents removed (`Zeitüberschreitung` = `zeituberschreitung`);
/// - runs of Chinese, Japanese or Korean characters become overlapping pairs (bigrams);
/// - English drops its commonest words and is stemmed (`connections` → `connect`).
public struct SearchTokenizer: Sendable, Hashable {
    public let english: Bool

    public init(language: String) {
        english = language == "en" || language.hasPrefix("en-")
    }

    /// Every word of the text in order, lower-cased and folded, not yet stemmed: a caller that
    /// tokenizes many texts caches `term(forWord:)` per word.
    ///
    /// One pass over the text's UTF-8 bytes: a word that is plain ASCII letters or digits, the
    /// commonest case by far, becomes a string straight from its bytes; others go through `emit`.
    public func forEachWord(in text: String, _ body: (String) -> Void) {
        forEachWord(in: text, plain: { body(String(decoding: $0, as: UTF8.self)) }, group: { $0.forEach(body) })
    }

    /// The same words, those of plain ASCII letters or digits handed over as their bytes,
    /// lower-cased, without a string made for them: for a caller that looks each word up.
    public func forEachWord(in text: String, plain: (UnsafeBufferPointer<UInt8>) -> Void, other: (String) -> Void) {
        forEachWord(in: text, plain: plain, group: { $0.forEach(other) })
    }

    /// Each word's terms together, the whole first (`php8.2-fpm`, `php8`, `php`, `fpm`), as
    /// `search.js` groups a query's: for a caller that needs to know where a word ends.
    func forEachWordGroup(in text: String, _ body: ([String]) -> Void) {
        forEachWord(in: text, plain: { body([String(decoding: $0, as: UTF8.self)]) }, group: body)
    }

    private func forEachWord(in text: String, plain: (UnsafeBufferPointer<UInt8>) -> Void, group: ([String]) -> Void) {
        var text = text
        text.withUTF8 { bytes in Self.forEachWord(in: bytes, plain: plain, other: group) }
    }

    private static func forEachWord(in bytes: UnsafeBufferPointer<UInt8>, plain plainWord: (UnsafeBufferPointer<UInt8>) -> Void, other body: ([String]) -> Void)
    {
        var wordStart = -1
        var wordEnd = 0
        var plain = true
        var upper = false
        var lowered: [UInt8] = []
        // The last word character's class (`.other` when it was not ASCII).
        var previousClass = ASCIIClass.other
        var ideographStart = -1
        var previousIdeograph: Unicode.Scalar?
        func endWord() {
            let word = UnsafeBufferPointer(rebasing: bytes[wordStart..<wordEnd])
            if plain {
                if word.count > 1 {
                    if upper {
                        lowered.removeAll(keepingCapacity: true)
                        lowered.append(contentsOf: word.lazy.map(ASCIIText.lowercased))
                        lowered.withUnsafeBufferPointer(plainWord)
                    } else {
                        plainWord(word)
                    }
                }
            } else {
                emit(word, body)
            }
            wordStart = -1
        }
        /// A lone ideograph between other characters is a term of its own.
        func endIdeographs(at index: Int) {
            if ideographStart >= 0, ideographStart + scalarLength(bytes[ideographStart]) == index {
                body([String(decoding: UnsafeBufferPointer(rebasing: bytes[ideographStart..<index]), as: UTF8.self)])
            }
            ideographStart = -1
            previousIdeograph = nil
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                let kind = ASCIIClass(byte)
                if kind != .other {
                    if ideographStart >= 0 { endIdeographs(at: index) }
                    if wordStart < 0 {
                        (wordStart, plain, upper) = (index, true, false)
                    } else if plain, ASCIIClass.isPieceBoundary(previousClass, kind) {
                        plain = false
                    }
                    if kind == .upper { upper = true }
                    wordEnd = index + 1
                    previousClass = kind
                    index += 1
                    continue
                }
                if ideographStart >= 0 { endIdeographs(at: index) }
                if wordStart >= 0 {
                    // A joiner joins only once and only when a letter or digit follows.
                    if isJoiner(Unicode.Scalar(byte)) && wordEnd == index { plain = false } else { endWord() }
                }
                index += 1
                continue
            }
            let length = scalarLength(byte)
            let scalar = decode(bytes, at: index, length: length)
            if isIdeograph(scalar) {
                if wordStart >= 0 { endWord() }
                if let last = previousIdeograph { body([String(String.UnicodeScalarView([last, scalar]))]) }
                if ideographStart < 0 { ideographStart = index }
                previousIdeograph = scalar
            } else {
                if ideographStart >= 0 { endIdeographs(at: index) }
                if isWordCharacter(scalar) {
                    if wordStart < 0 { wordStart = index }
                    plain = false
                    wordEnd = index + length
                    previousClass = .other
                } else if wordStart >= 0 {
                    endWord()
                }
            }
            index += length
        }
        if wordStart >= 0 { endWord() }
        if ideographStart >= 0 { endIdeographs(at: bytes.count) }
    }

    /// What an ASCII byte is to a word.
    private enum ASCIIClass: UInt8 {
        case other, lower, upper, digit

        init(_ byte: UInt8) {
            switch byte {
            case 0x61...0x7A: self = .lower
            case 0x41...0x5A: self = .upper
            case 0x30...0x39: self = .digit
            default: self = .other
            }
        }

        /// Letters next to digits (`php8`), and camelCase (`ProxyPass`).
        static func isPieceBoundary(_ previous: ASCIIClass, _ next: ASCIIClass) -> Bool {
            (previous == .digit) != (next == .digit) || (previous == .lower && next == .upper)
        }
    }

    /// The length of the UTF-8 sequence a lead byte starts.
    private static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    /// The scalar of a multi-byte sequence (a Swift string's bytes are valid UTF-8).
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, length: Int) -> Unicode.Scalar {
        var value = UInt32(bytes[index]) & (0xFF >> (length + 1))
        for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    private static func asciiLowercased(_ word: UnsafeBufferPointer<UInt8>) -> String { ASCIIText.lowercased(word) }

    /// The term a word is indexed under: its stem in English, where stop words have none.
    public func term(forWord word: String) -> String? {
        guard english else { return word }
        return Self.englishStopWords.contains(word) ? nil : PorterStemmer.stem(word)
    }

    /// The text's terms in order, repeats kept.
    public func terms(_ text: String) -> [String] {
        var terms: [String] = []
        forEachWord(in: text) { word in term(forWord: word).map { terms.append($0) } }
        return terms
    }

    /// One word with its joiners: the whole, each joined part, and each part's camel-case and
    /// letter/digit pieces; pieces of one character are too common to be worth a term.
    /// ASCII words are cut by their bytes; others are folded first and cut by their scalars.
    private static func emit(_ word: UnsafeBufferPointer<UInt8>, _ body: ([String]) -> Void) {
        var found: [String] = []
        func collect(_ term: String, length: Int) {
            if length > 1, !found.contains(term) { found.append(term) }
        }
        if word.allSatisfy({ $0 < 0x80 }) {
            let spans = pieces(count: word.count, isJoiner: { isJoiner(Unicode.Scalar(word[$0])) }) {
                ASCIIClass.isPieceBoundary(ASCIIClass(word[$0 - 1]), ASCIIClass(word[$0]))
            }
            for span in spans { collect(asciiLowercased(UnsafeBufferPointer(rebasing: word[span])), length: span.count) }
        } else {
            let scalars = Array(fold(String(decoding: word, as: UTF8.self)).unicodeScalars)
            for span in pieces(count: scalars.count, isJoiner: { isJoiner(scalars[$0]) }, isBoundary: { isPieceBoundary(scalars[$0 - 1], scalars[$0]) }) {
                let term = String(String.UnicodeScalarView(scalars[span])).lowercased()
                collect(term, length: term.unicodeScalars.count)
            }
        }
        if !found.isEmpty { body(found) }
    }

    /// The spans a word yields, in order: the whole; each part between joiners, when there are
    /// several; each part's pieces, when it has several. `isBoundary(i)`: a piece starts at `i`.
    private static func pieces(count: Int, isJoiner: (Int) -> Bool, isBoundary: (Int) -> Bool) -> [Range<Int>] {
        var spans = [0..<count]
        var partStart = 0
        for index in 0...count where index == count || isJoiner(index) {
            let part = partStart..<index
            partStart = index + 1
            if part.count < count { spans.append(part) }
            var pieceStart = part.lowerBound
            for i in part.dropFirst() where isBoundary(i) {
                spans.append(pieceStart..<i)
                pieceStart = i
            }
            if pieceStart != part.lowerBound { spans.append(pieceStart..<part.upperBound) }
        }
        return spans
    }

    /// Lucene's English stop words.
    static let englishStopWords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not",
        "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "will", "with",
    ]

    /// Letters and digits; combining accents too, which `fold` removes from the word.
    static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9") }
        return scalar.properties.isAlphabetic || scalar.properties.generalCategory == .decimalNumber || (0x300...0x36F).contains(scalar.value)
    }

    static func isJoiner(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar == "-" || scalar == "." || scalar == "/" || scalar == ":" || scalar == "@"
    }

    /// Hiragana, Katakana, CJK ideographs and Hangul syllables: no spaces between words.
    static func isIdeograph(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F, 0xAC00...0xD7AF: true
        default: false
        }
    }

    /// camelCase (`ProxyPass` → `Proxy`, `Pass`) and letters next to digits (`php8` → `php`, `8`).
    static func isPieceBoundary(_ previous: Unicode.Scalar, _ next: Unicode.Scalar) -> Bool {
        if previous.isASCII, next.isASCII {
            return ASCIIClass.isPieceBoundary(ASCIIClass(UInt8(previous.value)), ASCIIClass(UInt8(next.value)))
        }
        let previousDigit = previous.properties.generalCategory == .decimalNumber
        let nextDigit = next.properties.generalCategory == .decimalNumber
        if previousDigit != nextDigit { return true }
        return previous.properties.isLowercase && next.properties.isUppercase
    }

    /// Canonical decomposition without combining accents (U+0300–U+036F), recomposed.
    static func fold(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        let decomposed = text.decomposedStringWithCanonicalMapping.unicodeScalars.filter { !(0x300...0x36F).contains($0.value) }
        return String(String.UnicodeScalarView(decomposed)).precomposedStringWithCanonicalMapping
    }
}
