/// Whether an `if`/`unless` condition holds for a request of a given path, as far as the path
/// decides it: the ACLs on the path (`path`, `path_beg`, `path_end`, `path_sub`, `url_beg`, and
/// `path -m beg|end|sub|str`) are decided, every other (the source address, a header, a
/// credential) may go either way.
enum HAProxyPathCondition {
    enum Outcome: Equatable {
        case yes, no, maybe

        var negated: Outcome { self == .yes ? .no : self == .no ? .yes : .maybe }
    }

    /// The outcome for `path`; whether the path decided any part of it (a rule that applies
    /// whatever the path was met by the visitor's first request too); and whether every part
    /// it did not decide reads what the page's own request shares with the visitor's (`shared`).
    static func evaluate(_ condition: [String], path: String, acls: [String: [[String]]]) -> (outcome: Outcome, onPath: Bool, shared: Bool) {
        guard let keyword = condition.first else { return (.yes, false, true) }
        var onPath = false
        var shared = true
        var terms: [Outcome] = []
        var term: Outcome = .yes
        var index = 1
        func and(_ value: Outcome) {
            term = term == .no || value == .no ? .no : term == .yes && value == .yes ? .yes : .maybe
        }
        while index < condition.count {
            var word = condition[index]
            if word == "||" || word.lowercased() == "or" {
                terms.append(term)
                term = .yes
                index += 1
                continue
            }
            var negate = false
            if word.hasPrefix("!") {
                negate = true
                word.removeFirst()
            }
            var value: Outcome
            if word == "{" || (word.isEmpty && index + 1 < condition.count && condition[index + 1] == "{") {
                if word.isEmpty { index += 1 }
                let close = condition[(index + 1)...].firstIndex(of: "}") ?? condition.count
                let (result, decided, same) = acl(Array(condition[(index + 1)..<close]), path: path)
                value = result
                onPath = onPath || decided
                shared = shared && same
                index = close + 1
            } else {
                // A named ACL: several lines of one name are alternatives.
                let lines = acls[word] ?? []
                let results = lines.map { acl($0, path: path) }
                onPath = onPath || results.contains { $0.1 }
                shared = shared && !lines.isEmpty && results.allSatisfy { $0.2 }
                value = lines.isEmpty ? .maybe : results.contains { $0.0 == .yes } ? .yes : results.allSatisfy { $0.0 == .no } ? .no : .maybe
                index += 1
            }
            and(negate ? value.negated : value)
        }
        terms.append(term)
        let outcome: Outcome = terms.contains(.yes) ? .yes : terms.allSatisfy { $0 == .no } ? .no : .maybe
        return (keyword == "unless" ? outcome.negated : outcome, onPath, shared)
    }

    /// One ACL, `fetch [flags] values…`: decided when it reads the path; else whether what it
    /// reads is shared.
    private static func acl(_ words: [String], path: String) -> (Outcome, Bool, Bool) {
        guard let fetch = words.first else { return (.maybe, false, false) }
        var method: String
        switch fetch {
        case "path", "url": method = "str"
        case "path_beg", "url_beg": method = "beg"
        case "path_end", "url_end": method = "end"
        case "path_sub", "url_sub": method = "sub"
        default: return (.maybe, false, isShared(fetch))
        }
        var ignoreCase = false
        var values: [String] = []
        var index = 1
        while index < words.count {
            switch words[index] {
            case "-i": ignoreCase = true
            case "-m" where index + 1 < words.count:
                method = words[index + 1]
                index += 1
            case "--":
                values += words[(index + 1)...]
                index = words.count
            case let flag where flag.hasPrefix("-") && values.isEmpty:
                // `-f file`, `-M`, `-u`…: values detour cannot see.
                return (.maybe, false, false)
            default: values.append(words[index])
            }
            index += 1
        }
        guard ["str", "beg", "end", "sub"].contains(method) else { return (.maybe, false, false) }
        let subject = ignoreCase ? path.lowercased() : path
        let matches = values.contains { value in
            let value = ignoreCase ? value.lowercased() : value
            switch method {
            case "beg": return subject.hasPrefix(value)
            case "end": return subject.hasSuffix(value)
            case "sub": return subject.contains(value)
            default: return subject == value
            }
        }
        return (matches ? .yes : .no, true, true)
    }

    /// What a redirected visitor's second request shares with the first, a moment later: the
    /// Host (the redirect is to a path on it), the address, the TLS connection, the servers'
    /// state. Not a cookie, a method or any other header.
    static func isShared(_ fetch: String) -> Bool {
        // The fetch without its converters: `req.hdr(host,1),lower` → `req.hdr(host,1)`.
        let lowered = fetch.lowercased()
        let name =
            lowered.firstIndex(of: "(").flatMap { open in lowered[open...].firstIndex(of: ")").map { String(lowered[...$0]) } }
            ?? String(lowered.prefix { $0 != "," })
        if sharedFetches.contains(name) { return true }
        // hdr(host), req.hdr(host), hdr_dom(host), hdr_beg(host) …
        guard let open = name.firstIndex(of: "("), name.hasSuffix(")") else { return false }
        let function = name[..<open]
        let argument = name[name.index(after: open)..<name.index(before: name.endIndex)].split(separator: ",").first.map(String.init) ?? ""
        let header = function.hasPrefix("req.") ? function.dropFirst(4) : function[...]
        if header.hasPrefix("hdr"), argument == "host" { return true }
        return ["nbsrv", "srv_is_up", "be_conn", "connslots", "avg_queue", "queue"].contains(String(function))
    }

    private static let sharedFetches: Set<String> = ["src", "dst", "dst_port", "ssl_fc", "ssl_fc_sni", "req.ssl_sni", "so_name", "fe_name"]
}
