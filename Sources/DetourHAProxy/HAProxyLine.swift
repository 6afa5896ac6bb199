import DetourDiagnostics

/// One word of a configuration line, after HAProxy's quoting, escapes and environment
/// variables, with the column it starts at (its line knows the rest of where).
struct HAProxyWord: Sendable, Equatable {
    var text: String
    var column: Int32
}

/// One configuration line as HAProxy splits it into words. The file and line are kept once
/// per line: a configuration of thousands of backends has hundreds of thousands of words.
struct HAProxyLine: Sendable {
    var words: [HAProxyWord]
    var path: String
    var number: Int
    var keyword: String { words[0].text }

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

    /// The rule's condition, from `if` or `unless` on; empty when it applies to every request.
    var condition: [String] {
        let texts = words.dropFirst().map(\.text)
        return Array(texts.drop { $0 != "if" && $0 != "unless" })
    }
}
