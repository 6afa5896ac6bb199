/// `.if` conditions as HAProxy 2.6 evaluates them: a number (true unless 0), `defined(VAR)`,
/// `feature(NAME)`, `streq(a,b)`, `strneq(a,b)`, `version_atleast(V)`, `version_before(V)`.
/// Words are already expanded; a condition it cannot read is nil.
enum HAProxyCondition {
    /// The version the configuration is read as: Debian 12's.
    static let version = [2, 6, 12]
    /// Build features Debian 12's HAProxy has.
    static let features: Set<String> = [
        "OPENSSL", "LUA", "PCRE2", "PCRE2_JIT", "ZLIB", "PROMEX", "SYSTEMD", "THREAD", "CPU_AFFINITY", "GETADDRINFO", "TPROXY", "LINUX_SPLICE", "NS", "ACCEPT4",
    ]

    static func evaluate(_ words: [String], environment: [String: String]) -> Bool? {
        guard !words.isEmpty else { return false }
        let text = words.joined(separator: " ")
        if let number = Int(text) { return number != 0 }
        guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return nil }
        let name = String(text[..<open])
        let arguments = text[text.index(after: open)..<text.index(before: text.endIndex)].split(separator: ",", omittingEmptySubsequences: false).map {
            String($0)
        }
        switch (name, arguments.count) {
        case ("defined", 1): return environment[arguments[0]] != nil
        case ("feature", 1): return features.contains(arguments[0])
        case ("streq", 2): return arguments[0] == arguments[1]
        case ("strneq", 2): return arguments[0] != arguments[1]
        case ("version_atleast", 1): return parse(arguments[0]).map { !version.lexicographicallyPrecedes($0) } ?? nil
        case ("version_before", 1): return parse(arguments[0]).map { version.lexicographicallyPrecedes($0) } ?? nil
        default: return nil
        }
    }

    private static func parse(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".").map { Int($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
        return parts.map { $0! }
    }
}
