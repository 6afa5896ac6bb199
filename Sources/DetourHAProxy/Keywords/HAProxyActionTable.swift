/// The argument counts HAProxy 2.6 refuses for each action of its HTTP rule sets, in its words:
/// derived from the haproxy binary by scripts/haproxy-keywords/derive-actions.py
/// (HAProxyActionData.swift).
struct HAProxyActionTable: Sendable {
    static let shared = HAProxyActionTable(haproxyActionData)
    /// The most arguments tried: more count as that many.
    static let most = 6

    /// By rule set, action (`NAME(*)` for one named in parentheses) and count: HAProxy's words.
    private var refusals: [String: [String: [Int: String]]] = [:]

    init(_ data: String) {
        for line in data.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4, let count = Int(fields[2]) else { continue }
            refusals[String(fields[0]), default: [:]][String(fields[1]), default: [:]][count] = String(fields[3])
        }
    }

    /// What HAProxy says of `action` in `ruleset` given `count` arguments; nil when it takes them.
    func refusal(_ ruleset: String, _ action: String, count: Int) -> String? {
        guard let actions = refusals[ruleset] else { return nil }
        let counts = action.utf8.contains(UInt8(ascii: "(")) ? actions[action.prefix { $0 != "(" } + "(*)"] : actions[action]
        return counts?[min(count, Self.most)]
    }
}
