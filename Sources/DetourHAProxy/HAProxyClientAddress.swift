/// The client address a frontend lets through, where it refuses the sandbox's own (127.0.0.1):
/// an admin frontend or a forward proxy that serves only some networks (`acl allowed src
/// 10.0.0.0/8` with `http-request deny if !allowed`). The sandbox then accepts the PROXY
/// protocol on its binds and the probes declare that address, so HAProxy's `src` is one its
/// visitors have. The rules are read in order as HAProxy applies them: an `allow` that holds
/// ends a phase, a refusal that holds refuses; a condition on anything but the address is
/// unknown and decides nothing.
enum HAProxyClientAddress {
    /// nil where 127.0.0.1 is let through, or no address in the section's `src` ACLs is.
    static func needed(_ section: HAProxySection) -> String? {
        var networks: [String: [String]] = ["LOCALHOST": ["127.0.0.0/8"]]
        for line in section.lines where line.keyword == "acl" && line.words.count >= 4 && line.words[2].text == "src" {
            var values: [String] = []
            var skipNext = false
            for word in line.words.dropFirst(3).map(\.text) {
                if skipNext {
                    skipNext = false
                } else if word.hasPrefix("-") {
                    // `-f FILE` and `-m ip` take a value; `-n`, `-i` do not.
                    skipNext = ["-f", "-m", "-M"].contains(word)
                } else {
                    values.append(word)
                }
            }
            networks[line.words[1].text, default: []] += values
        }
        guard networks.count > 1 else { return nil }
        let rules = section.lines.compactMap(Rule.init)
        guard refuses("127.0.0.1", rules, networks) else { return nil }
        let candidates = networks.filter { $0.key != "LOCALHOST" }.values.joined().compactMap(Self.host)
        return candidates.first { !refuses($0, rules, networks) }
    }

    /// An access rule: its phase, whether it lets through or refuses, and its condition.
    struct Rule {
        var phase: String
        var allows: Bool
        var condition: [String]

        init?(_ line: HAProxyLine) {
            let words = line.words.map(\.text)
            let actionIndex: Int
            switch line.keyword {
            case "http-request": actionIndex = 1
            case "tcp-request" where words.count > 2 && ["connection", "session", "content"].contains(words[1]): actionIndex = 2
            default: return nil
            }
            guard actionIndex < words.count else { return nil }
            let action = words[actionIndex]
            // `allow` (http-request) and `accept` (tcp-request) end their phase for the request.
            guard ["allow", "accept", "deny", "reject", "tarpit", "silent-drop"].contains(action) else { return nil }
            phase = line.keyword + (actionIndex == 2 ? " " + words[1] : "")
            allows = action == "allow" || action == "accept"
            condition = line.condition
        }
    }

    /// Whether a request from `address` meets a refusal that holds whatever the rest of it is.
    static func refuses(_ address: String, _ rules: [Rule], _ networks: [String: [String]]) -> Bool {
        var decided = Set<String>()
        for rule in rules where !decided.contains(rule.phase) {
            guard holds(rule.condition, address, networks) == true else { continue }
            if rule.allows { decided.insert(rule.phase) } else { return true }
        }
        return false
    }

    /// `if`/`unless` and its terms (`a !b || c`, `or`, `{ src … }`): true, false, or nil when
    /// it depends on more than the address.
    static func holds(_ condition: [String], _ address: String, _ networks: [String: [String]]) -> Bool? {
        guard let keyword = condition.first else { return true }
        var alternatives: [Bool?] = []
        var all: Bool? = true
        var words = condition.dropFirst()[...]
        while let word = words.popFirst() {
            if word == "||" || word == "or" {
                alternatives.append(all)
                all = true
                continue
            }
            var term: Bool?
            var name = word
            let negated = name.hasPrefix("!")
            if negated { name.removeFirst() }
            if name == "{" || (negated && name.isEmpty && words.first == "{") {
                // An anonymous ACL: `{ src 10.0.0.0/8 }`.
                if name.isEmpty { words = words.dropFirst() }
                let inner = Array(words.prefix { $0 != "}" })
                words = words.dropFirst(inner.count + 1)
                term = inner.first == "src" ? inner.dropFirst().contains { contains($0, address) } : nil
            } else if name == "TRUE" || name == "FALSE" {
                term = name == "TRUE"
            } else if let values = networks[name] {
                term = values.contains { contains($0, address) }
            }
            term = negated ? term.map(!) : term
            all = and(all, term)
        }
        alternatives.append(all)
        let result: Bool? = alternatives.contains(true) ? true : alternatives.allSatisfy({ $0 == false }) ? false : nil
        return keyword == "unless" ? result.map(!) : result
    }

    private static func and(_ left: Bool?, _ right: Bool?) -> Bool? {
        if left == false || right == false { return false }
        if left == nil || right == nil { return nil }
        return true
    }

    /// Whether IPv4 `network` (`10.0.0.0/8`, `10.1.2.3`) holds `address`.
    static func contains(_ network: String, _ address: String) -> Bool {
        let parts = network.split(separator: "/", maxSplits: 1)
        guard let base = value(String(parts[0])), let host = value(address) else { return false }
        let bits = parts.count == 2 ? Int(parts[1]) ?? 32 : 32
        guard (0...32).contains(bits) else { return false }
        let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
        return base & mask == host & mask
    }

    /// A host in `network`: the address itself, or the network's first host.
    static func host(_ network: String) -> String? {
        let parts = network.split(separator: "/", maxSplits: 1)
        guard let base = value(String(parts[0])) else { return nil }
        let bits = parts.count == 2 ? Int(parts[1]) ?? 32 : 32
        let address = bits < 31 && base & 0xFF == 0 ? base + 1 : base
        return [24, 16, 8, 0].map { String(address >> UInt32($0) & 0xFF) }.joined(separator: ".")
    }

    private static func value(_ dotted: String) -> UInt32? {
        let octets = dotted.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt32($0) }
        guard octets.count == 4, octets.allSatisfy({ $0 < 256 }) else { return nil }
        return octets.reduce(0) { $0 << 8 | $1 }
    }
}
