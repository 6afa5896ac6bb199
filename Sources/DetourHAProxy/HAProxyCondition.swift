/// `.if` conditions as HAProxy 2.6 evaluates them: numbers (true unless 0) and the predicates
/// `defined(VAR)`, `feature(NAME)`, `streq(a,b)`, `strneq(a,b)`, `version_atleast(V)`,
/// `version_before(V)`, negated with `!`, grouped in parentheses, joined by `&&` and `||`.
/// Words are already expanded; a condition it cannot read is nil.
enum HAProxyCondition {
    /// The version the configuration is read as: Debian 12's.
    static let version = [2, 6, 12, 0, 3, 0, 0]
    /// Build features Debian 12's HAProxy has.
    static let features: Set<String> = [
        "OPENSSL", "LUA", "PCRE2", "PCRE2_JIT", "ZLIB", "PROMEX", "SYSTEMD", "THREAD", "CPU_AFFINITY", "GETADDRINFO", "TPROXY", "LINUX_SPLICE", "NS", "ACCEPT4",
    ]

    /// A condition as cfgcond.c reads it: terms joined by `&&` (binding tighter) and `||`,
    /// each a `!`-negated term, a parenthesised condition, a number or a predicate.
    static func evaluate(_ words: [String], environment: [String: String]) -> Bool? {
        guard !words.isEmpty else { return false }
        var reader = Reader(text: Array(words.joined(separator: " ")), environment: environment)
        guard let value = reader.condition() else { return nil }
        reader.skipSpaces()
        return reader.index == reader.text.count ? value : nil
    }

    private static func predicate(_ name: String, _ arguments: [String], environment: [String: String]) -> Bool? {
        switch (name, arguments.count) {
        case ("defined", 1): return environment[arguments[0]] != nil
        case ("feature", 1): return features.contains(arguments[0])
        case ("streq", 2): return arguments[0] == arguments[1]
        case ("strneq", 2): return arguments[0] != arguments[1]
        // A version HAProxy cannot read compares as "older than this one" (cfgcond.c): at least
        // it, and not before it.
        case ("version_atleast", 1): return parse(arguments[0]).map { !version.lexicographicallyPrecedes($0) } ?? true
        case ("version_before", 1): return parse(arguments[0]).map { version.lexicographicallyPrecedes($0) } ?? false
        default: return nil
        }
    }

    /// Reads one condition left to right; nil where HAProxy would not read it.
    private struct Reader {
        let text: [Character]
        let environment: [String: String]
        var index = 0

        mutating func skipSpaces() {
            while index < text.count, text[index] == " " || text[index] == "\t" { index += 1 }
        }

        mutating func take(_ token: String) -> Bool {
            skipSpaces()
            let characters = Array(token)
            guard index + characters.count <= text.count, Array(text[index..<index + characters.count]) == characters else { return false }
            index += characters.count
            return true
        }

        mutating func condition() -> Bool? {
            guard var value = conjunction() else { return nil }
            while take("||") {
                guard let next = conjunction() else { return nil }
                value = value || next
            }
            return value
        }

        mutating func conjunction() -> Bool? {
            guard var value = term() else { return nil }
            while take("&&") {
                guard let next = term() else { return nil }
                value = value && next
            }
            return value
        }

        mutating func term() -> Bool? {
            if take("!") { return term().map { !$0 } }
            if take("(") {
                guard let value = condition(), take(")") else { return nil }
                return value
            }
            skipSpaces()
            let start = index
            while index < text.count, text[index].isLetter || text[index].isNumber || text[index] == "_" { index += 1 }
            let name = String(text[start..<index])
            guard !name.isEmpty else { return nil }
            guard index < text.count, text[index] == "(" else {
                guard let number = Int(name) else { return nil }
                return number != 0
            }
            guard let close = text[index...].firstIndex(of: ")") else { return nil }
            let arguments = String(text[(index + 1)..<close]).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            index = close + 1
            return HAProxyCondition.predicate(name, arguments, environment: environment)
        }
    }

    /// The installed version, as `haproxy -v` names it, is read the same way.
    /// A version as HAProxy's `split_version` reads it (src/haproxy.c): up to four numbers,
    /// then a tag (`dev` 1, `rc`/`pre` 2, none 3) with its number, then a commit count, so
    /// `3.1-dev8` is [3, 1, 0, 0, 1, 8, 0] and 2.6.12 is [2, 6, 12, 0, 3, 0, 0]. Nil where
    /// HAProxy fails to read it.
    static func parse(_ text: String) -> [Int]? {
        var value = [0, 0, 0, 0, 3, 0, 0]
        var rest = Substring(text)
        guard !rest.isEmpty else { return nil }
        /// strtol: the leading digits (0 when none) and what follows them.
        func number() -> (Int, Character?) {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count)
            let next = rest.first
            if next != nil { rest = rest.dropFirst() }
            return (Int(digits) ?? 0, next)
        }
        var index = 0
        while index < 4 {
            let (read, next) = number()
            value[index] = read
            guard let next else { return value }
            if next == "-" { break }
            guard next == ".", index < 3 else { return nil }
            index += 1
        }
        if let first = rest.first, !first.isNumber {
            let tags: [(String, Int)] = [("dev", 1), ("rc", 2), ("pre", 2)]
            if let (tag, rank) = tags.first(where: { rest.hasPrefix($0.0) }) {
                value[4] = rank
                rest = rest.dropFirst(tag.count)
                let (read, next) = number()
                value[5] = read
                guard let next else { return value }
                guard next == "-" else { return nil }
            }
        }
        // The commit count: the number after the last '-', else the rest (0 unless all digits).
        let commit = rest.lastIndex(of: "-").map { rest[rest.index(after: $0)...] } ?? rest
        if rest.contains("-"), commit.isEmpty { return nil }
        value[6] = Int(commit) ?? 0
        return value
    }
}
