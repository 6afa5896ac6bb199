import DetourDiagnostics

/// An `http-request deny`, `auth` or `tarpit` rule: a request it applies to gets a refusal,
/// not what it asked for.
struct HAProxyRequestGuard: Sendable {
    /// `deny`, `auth`, `tarpit`.
    var action: String
    /// What the refused request gets: 401 for auth, `deny_status` or 403 for deny, 500 for tarpit.
    var status: Int
    /// From `if` or `unless` on; empty when it applies to every request.
    var condition: [String]
    var line: SourceLocation

    init(_ line: HAProxyLine) {
        let words = line.words.map(\.text)
        action = words[1]
        condition = line.condition
        let conditionStart = words.count - condition.count
        let denyStatus = words.firstIndex(of: "deny_status").flatMap { $0 + 1 < conditionStart ? Int(words[$0 + 1]) : nil }
        status = action == "auth" ? 401 : action == "tarpit" ? 500 : denyStatus ?? 403
        self.line = line.location
    }

    static let actions: Set<String> = ["deny", "auth", "tarpit"]
}
