/// What libcmark's smart punctuation (`smart_punctuation: true`) did to a text, undone where it
/// does not belong: inside a bare URL, which cmark-gfm reads before the quotes and dashes are
/// made, and in a command-line flag (`--dry-run`), which an en dash would break when copied.
struct SmartPunctuation {
    /// The text as written: each curly quote, dash and ellipsis back to its straight source.
    let plain: [Unicode.Scalar]
    private let original: [Unicode.Scalar]
    /// For each of `plain`'s characters, the character of `original` it comes from.
    private let source: [Int]
    /// For each of `original`'s characters, where its straight form starts in `plain`.
    private let start: [Int]

    init(_ text: String, undo: Bool) {
        original = Array(text.unicodeScalars)
        var plain: [Unicode.Scalar] = []
        var source: [Int] = []
        var start: [Int] = []
        for (index, character) in original.enumerated() {
            start.append(plain.count)
            let straight = undo ? Self.straight(character) : [character]
            plain += straight
            source += Array(repeating: index, count: straight.count)
        }
        start.append(plain.count)
        (self.plain, self.source, self.start) = (plain, source, start)
    }

    private static func straight(_ character: Unicode.Scalar) -> [Unicode.Scalar] {
        switch character {
        case "\u{2026}": return [".", ".", "."]
        case "\u{2013}": return ["-", "-"]
        case "\u{2014}": return ["-", "-", "-"]
        case "\u{201C}", "\u{201D}": return ["\""]
        case "\u{2018}", "\u{2019}": return ["'"]
        default: return [character]
        }
    }

    /// `plain[range]` as the page shows it: smart where a whole character of the original lies
    /// inside the range, straight where the range cuts one.
    func shown(_ range: Range<Int>) -> String {
        var text = ""
        var index = range.lowerBound
        while index < range.upperBound {
            let from = source[index]
            if start[from] >= range.lowerBound, start[from + 1] <= range.upperBound {
                text.unicodeScalars.append(original[from])
                index = start[from + 1]
            } else {
                text.unicodeScalars.append(plain[index])
                index += 1
            }
        }
        return text
    }

    /// `text` with each en dash that starts a word and runs into a letter (`–dry-run`) back to `--`.
    static func keepingFlags(_ text: String) -> String {
        guard text.unicodeScalars.contains("\u{2013}") else { return text }
        var result = ""
        var previous: Unicode.Scalar?
        let scalars = Array(text.unicodeScalars)
        for (index, character) in scalars.enumerated() {
            let startsWord = previous.map { CharacterClass.isASCIISpace($0) || $0 == "(" } ?? true
            if character == "\u{2013}", startsWord, index + 1 < scalars.count, CharacterClass.isASCIILetter(scalars[index + 1]) {
                result += "--"
            } else {
                result.unicodeScalars.append(character)
            }
            previous = character
        }
        return result
    }
}
