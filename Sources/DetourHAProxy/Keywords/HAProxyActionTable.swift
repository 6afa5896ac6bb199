import DetourSupport

/// The argument counts HAProxy 2.6 refuses for each action of its HTTP rule sets, in its words:
/// derived from the haproxy binary by scripts/haproxy-keywords/derive-actions.py
/// (HAProxyActionData.swift).
struct HAProxyActionTable: Sendable {
    static let shared = HAProxyActionTable(haproxyActionData)
    /// The most arguments tried: more count as that many.
    static let most = 6

    /// By rule set, action (`NAME(*)` for one named in parentheses) and count: HAProxy's words.
    private var refusals: [String: [String: [Int: String]]] = [:]

    /// The table's tab-separated lines, read as bytes: a check reads it at every start.
    init(_ data: String) {
        FieldLines.forEach(in: Array(data.utf8), separator: UInt8(ascii: "\t")) { fields in
            guard fields.count == 4, let count = FieldLines.integer(fields[2]) else { return true }
            refusals[FieldLines.string(fields[0]), default: [:]][FieldLines.string(fields[1]), default: [:]][count] = FieldLines.string(fields[3])
            return true
        }
    }

    /// What HAProxy says of `action` in `ruleset` given `count` arguments; nil when it takes them.
    func refusal(_ ruleset: String, _ action: String, count: Int) -> String? {
        guard let actions = refusals[ruleset] else { return nil }
        let counts = action.utf8.contains(UInt8(ascii: "(")) ? actions[action.prefix { $0 != "(" } + "(*)"] : actions[action]
        return counts?[min(count, Self.most)]
    }
}
