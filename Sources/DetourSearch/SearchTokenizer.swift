import Foundation

/// Turns text into search terms, the same way for the index (here) and for queries
/// (`search.js`). Made for troubleshooting text:
/// - identifiers are kept whole and split into their parts: `proxy_read_timeout`,
///   `php8.2-fpm`, `ProxyErrorOverride`, `127.0.0.1:9000` are one term each and also
///   `proxy` `read` `timeout`, `php8` `php` `fpm`, `proxy` `error` `override`, …;
/// - text is lower-cased with accents removed (`Zeitüberschreitung` = `zeituberschreitung`);
/// - runs of Chinese, Japanese or Korean characters become overlapping pairs (bigrams);
/// - English drops its commonest words and is stemmed (`connections` → `connect`).
public struct SearchTokenizer: Sendable {
    public let english: Bool

    public init(language: String) {
        english = language == "en" || language.hasPrefix("en-")
    }

    /// Every word of the text in order, lower-cased and folded, not yet stemmed: a caller that
    /// tokenizes many texts caches `term(forWord:)` per word.
    ///
    /// One pass over the text: a word that is plain ASCII letters or digits, the commonest
    /// case by far, is passed on with no further work; others go through `emit`.
    public func forEachWord(in text: String, _ body: (String) -> Void) {
        let scalars = text.unicodeScalars
        var wordStart: String.Index?
        var wordEnd = scalars.startIndex
        var plain = true
        var upper = false
        var previous: Unicode.Scalar = " "
        var ideographStart: String.Index?
        var previousIdeograph: Unicode.Scalar?
        func endWord(_ start: String.Index) {
            let word = text[start..<wordEnd]
            if plain {
                guard word.utf8.count > 1 else { return }
                body(upper ? word.lowercased() : String(word))
            } else {
                emit(word, body)
            }
        }
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            defer { index = next }
            if scalar.isASCII {
                let letter = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
                let digit = scalar >= "0" && scalar <= "9"
                if letter || digit {
                    if let start = ideographStart, scalars.index(after: start) == index { body(String(scalars[start])) }
                    ideographStart = nil
                    previousIdeograph = nil
                    if wordStart == nil {
                        (wordStart, plain, upper) = (index, true, false)
                    } else if plain, previous.isASCII, Self.isPieceBoundary(previous, scalar) {
                        plain = false
                    }
                    if scalar <= "Z", letter { upper = true }
                    wordEnd = next
                    previous = scalar
                    continue
                }
            }
            if Self.isIdeograph(scalar) {
                if let start = wordStart { endWord(start) }
                wordStart = nil
                if let last = previousIdeograph { body(String(String.UnicodeScalarView([last, scalar]))) }
                if ideographStart == nil { ideographStart = index }
                previousIdeograph = scalar
                continue
            }
            if let start = ideographStart, scalars.index(after: start) == index { body(String(scalars[start])) }
            ideographStart = nil
            previousIdeograph = nil
            if Self.isWordCharacter(scalar) {
                if wordStart == nil { wordStart = index }
                plain = false
                wordEnd = next
                previous = scalar
            } else if let start = wordStart {
                // A joiner joins only once and only when a letter or digit follows.
                if Self.isJoiner(scalar) && wordEnd == index {
                    plain = false
                } else {
                    endWord(start)
                    wordStart = nil
                }
            }
        }
        if let start = wordStart { endWord(start) }
        if let start = ideographStart, scalars.index(after: start) == scalars.endIndex { body(String(scalars[start])) }
    }

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
    private func emit(_ word: Substring, _ body: (String) -> Void) {
        let scalars = Array(Self.fold(String(word)).unicodeScalars)
        var simple = true
        for i in scalars.indices where Self.isJoiner(scalars[i]) || (i > 0 && Self.isPieceBoundary(scalars[i - 1], scalars[i])) {
            simple = false
            break
        }
        if simple {
            if scalars.count > 1 { body(String(String.UnicodeScalarView(scalars)).lowercased()) }
            return
        }
        var found: [String] = []
        func collect(_ slice: ArraySlice<Unicode.Scalar>) {
            let term = String(String.UnicodeScalarView(slice)).lowercased()
            if term.unicodeScalars.count > 1, !found.contains(term) { found.append(term) }
        }
        collect(scalars[...])
        var partStart = 0
        for index in 0...scalars.count where index == scalars.count || Self.isJoiner(scalars[index]) {
            let part = scalars[partStart..<index]
            partStart = index + 1
            if part.count < scalars.count { collect(part) }
            var pieceStart = part.startIndex
            for i in part.indices.dropFirst() where Self.isPieceBoundary(part[i - 1], part[i]) {
                collect(part[pieceStart..<i])
                pieceStart = i
            }
            if pieceStart != part.startIndex { collect(part[pieceStart...]) }
        }
        found.forEach(body)
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
            let previousDigit = previous >= "0" && previous <= "9", nextDigit = next >= "0" && next <= "9"
            return previousDigit != nextDigit || (previous >= "a" && previous <= "z" && next >= "A" && next <= "Z")
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
