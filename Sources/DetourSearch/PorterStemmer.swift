/// Martin Porter's 1980 stemmer for English ("connections", "connected" → "connect"), as the
/// paper defines it, but for one step: a final `y` after a vowel-bearing stem becomes `i` once
/// more after step 5, so a word whose `y` only ends the stem once step 4 has taken a suffix
/// (`deployment` → `deploy`) meets its other forms (`deploys`, `deployed` → `deploi`).
/// `search.js` finds a query word's stem in the forms the index lists (word → stem).
public enum PorterStemmer {
    /// `word` in lower-case ASCII letters; anything else, or two letters or fewer, is returned as is.
    public static func stem(_ word: String) -> String {
        var letters = Array(word.utf8)
        guard letters.count > 2, letters.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return word }
        step1a(&letters)
        step1b(&letters)
        if ends(letters, "y"), hasVowel(letters, before: letters.count - 1) { letters[letters.count - 1] = UInt8(ascii: "i") }
        replaceLongest(&letters, step2, minimumMeasure: 1)
        replaceLongest(&letters, step3, minimumMeasure: 1)
        step4(&letters)
        step5(&letters)
        if ends(letters, "y"), hasVowel(letters, before: letters.count - 1) { letters[letters.count - 1] = UInt8(ascii: "i") }
        return String(decoding: letters, as: UTF8.self)
    }

    private static let step2: [(String, String)] = [
        ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"), ("abli", "able"),
        ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"), ("ization", "ize"), ("ation", "ate"),
        ("ator", "ate"), ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"),
        ("iviti", "ive"), ("biliti", "ble"),
    ]
    private static let step3: [(String, String)] = [
        ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""), ("ness", ""),
    ]
    private static let step4Suffixes = [
        "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
    ]

    private static func step1a(_ w: inout [UInt8]) {
        if ends(w, "sses") || ends(w, "ies") { w.removeLast(2) } else if ends(w, "s"), !ends(w, "ss") { w.removeLast() }
    }

    private static func step1b(_ w: inout [UInt8]) {
        if ends(w, "eed") {
            if measure(w, upTo: w.count - 3) > 0 { w.removeLast() }
            return
        }
        guard let suffix = ["ed", "ing"].first(where: { ends(w, $0) }), hasVowel(w, before: w.count - suffix.utf8.count) else { return }
        w.removeLast(suffix.utf8.count)
        if ends(w, "at") || ends(w, "bl") || ends(w, "iz") {
            w.append(UInt8(ascii: "e"))
        } else if endsWithDoubleConsonant(w), !"lsz".utf8.contains(w[w.count - 1]) {
            w.removeLast()
        } else if measure(w, upTo: w.count) == 1, endsConsonantVowelConsonant(w) {
            w.append(UInt8(ascii: "e"))
        }
    }

    private static func step4(_ w: inout [UInt8]) {
        guard let suffix = step4Suffixes.filter({ ends(w, $0) }).max(by: { $0.utf8.count < $1.utf8.count }) else { return }
        let stem = w.count - suffix.utf8.count
        guard measure(w, upTo: stem) > 1 else { return }
        if suffix == "ion", stem == 0 || !"st".utf8.contains(w[stem - 1]) { return }
        w.removeLast(suffix.utf8.count)
    }

    private static func step5(_ w: inout [UInt8]) {
        if ends(w, "e") {
            let m = measure(w, upTo: w.count - 1)
            if m > 1 || (m == 1 && !endsConsonantVowelConsonant(Array(w.dropLast()))) { w.removeLast() }
        }
        if ends(w, "ll"), measure(w, upTo: w.count) > 1 { w.removeLast() }
    }

    /// Steps 2 and 3: the longest suffix that matches decides; its rule applies if the stem's
    /// measure allows, and no shorter suffix is tried.
    private static func replaceLongest(_ w: inout [UInt8], _ rules: [(String, String)], minimumMeasure: Int) {
        guard let rule = rules.filter({ ends(w, $0.0) }).max(by: { $0.0.utf8.count < $1.0.utf8.count }) else { return }
        let stem = w.count - rule.0.utf8.count
        guard measure(w, upTo: stem) >= minimumMeasure else { return }
        w.removeLast(rule.0.utf8.count)
        w.append(contentsOf: rule.1.utf8)
    }

    private static func ends(_ w: [UInt8], _ suffix: String) -> Bool {
        let s = Array(suffix.utf8)
        return w.count >= s.count && w[(w.count - s.count)...].elementsEqual(s)
    }

    private static func isConsonant(_ w: [UInt8], _ i: Int) -> Bool {
        switch w[i] {
        case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"), UInt8(ascii: "u"): false
        case UInt8(ascii: "y"): i == 0 || !isConsonant(w, i - 1)
        default: true
        }
    }

    /// m in [C](VC)^m[V], for the first `end` letters.
    private static func measure(_ w: [UInt8], upTo end: Int) -> Int {
        var m = 0
        var previousWasVowel = false
        for i in 0..<end {
            let consonant = isConsonant(w, i)
            if consonant, previousWasVowel { m += 1 }
            previousWasVowel = !consonant
        }
        return m
    }

    private static func hasVowel(_ w: [UInt8], before end: Int) -> Bool {
        (0..<end).contains { !isConsonant(w, $0) }
    }

    private static func endsWithDoubleConsonant(_ w: [UInt8]) -> Bool {
        w.count >= 2 && w[w.count - 1] == w[w.count - 2] && isConsonant(w, w.count - 1)
    }

    /// *o: consonant, vowel, consonant, the last not w, x or y.
    private static func endsConsonantVowelConsonant(_ w: [UInt8]) -> Bool {
        let n = w.count
        return n >= 3 && isConsonant(w, n - 3) && !isConsonant(w, n - 2) && isConsonant(w, n - 1) && !"wxy".utf8.contains(w[n - 1])
    }
}
