/// Caddy 2.8's `handle_errors 404 5xx { … }`: the codes its routes answer.
enum CaddyErrorStatuses {
    /// The status words after `handle_errors`, up to its block.
    static func arguments(of segment: some Collection<CaddyToken>) -> [CaddyToken] {
        Array(segment.dropFirst().prefix { !($0.text == "{" && !$0.isQuoted) })
    }

    /// `502` or `5xx`; nil for what Caddy calls a bad status value.
    static func codes(_ word: String) -> ClosedRange<Int>? {
        guard word.utf8.count == 3 else { return nil }
        if word.hasSuffix("xx"), let hundreds = Int(word.prefix(1)) { return (hundreds * 100)...(hundreds * 100 + 99) }
        guard let code = Int(word) else { return nil }
        return code...code
    }

    /// The codes all the arguments admit; nil when there are none (every code).
    static func admitted(by segment: [CaddyToken]) -> Set<Int>? {
        let words = arguments(of: segment)
        guard !words.isEmpty else { return nil }
        return words.reduce(into: Set<Int>()) { admitted, word in admitted.formUnion(codes(word.text).map(Set.init) ?? []) }
    }
}
