import DetourDiagnostics

/// One word of a configuration line, after HAProxy's quoting, escapes and environment
/// variables, with the column it starts at (its line knows the rest of where).
struct HAProxyWord: Sendable, Equatable {
    var text: String
    var column: Int32

    /// `if` or `unless`. Lengths first: every word of every rule is asked, and comparing
    /// strings of different lengths costs far more than reading their lengths.
    var startsCondition: Bool { "if" ~= self || "unless" ~= self }

    /// A word matches a string pattern (`switch word { case "ssl": … }`) when its text is the
    /// string, lengths compared first (see `startsCondition`).
    static func ~= (pattern: String, word: HAProxyWord) -> Bool {
        pattern.utf8.count == word.text.utf8.count && pattern == word.text
    }
}

/// One configuration line as HAProxy splits it into words. The file and line are kept once
/// per line: a configuration of thousands of backends has hundreds of thousands of words.
struct HAProxyLine: Sendable {
    let words: [HAProxyWord]
    var path: String
    var number: Int
    var keyword: String { words[0].text }
    /// The keyword the readers dispatch on; nil for one none does.
    let knownKeyword: HAProxyKeyword?

    init(words: [HAProxyWord], path: String, number: Int) {
        self.words = words
        self.path = path
        self.number = number
        knownKeyword = HAProxyKeyword.of(words[0].text)
    }

    var location: SourceLocation { location(of: words[0]) }

    func location(of word: HAProxyWord) -> SourceLocation {
        SourceLocation(path: path, line: number, column: Int(word.column))
    }

    /// The word after `keyword` (`errorfile 503 F` → `after("errorfile")` is `503`).
    func word(after keyword: String, from start: Int = 0) -> HAProxyWord? {
        guard let index = words[start...].firstIndex(where: { $0.text == keyword }), index + 1 < words.count else { return nil }
        return words[index + 1]
    }

    /// Where a rule's action stands: `tcp-request content ACTION` names its rule set first,
    /// `http-request ACTION` does not.
    var actionIndex: Int { keyword.hasPrefix("tcp-") && words.count > 2 ? 2 : 1 }

    /// Where the rule's condition starts (its `if` or `unless`); nil when it has none.
    var conditionStart: Int? { words.indices.dropFirst().first { words[$0].startsCondition } }

    /// The rule's condition, from `if` or `unless` on; empty when it applies to every request.
    var condition: [String] { conditionStart.map { words[$0...].map(\.text) } ?? [] }
}
