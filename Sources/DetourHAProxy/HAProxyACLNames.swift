/// The ACL names a rule's condition uses (`… if !is_api || LOCALHOST`; an anonymous `{ … }`
/// ACL aside), and HAProxy's refusal of one its proxy has not declared above the rule: HAProxy
/// looks each name up as it reads the rule, stops reading the file there (so it names only the
/// first), and knows a few without a declaration.
struct HAProxyACLNames {
    /// The ACLs HAProxy 2.6 knows without a declaration (default_acl_list[] in src/acl.c).
    static let predefined: Set<String> = [
        "TRUE", "FALSE", "LOCALHOST", "HTTP", "HTTP_1.0", "HTTP_1.1", "HTTP_2.0", "METH_CONNECT", "METH_DELETE", "METH_GET", "METH_HEAD",
        "METH_OPTIONS", "METH_POST", "METH_PUT", "METH_TRACE", "HTTP_URL_ABS", "HTTP_URL_SLASH", "HTTP_URL_STAR", "HTTP_CONTENT", "RDP_COOKIE",
        "REQ_CONTENT", "WAIT_END",
    ]

    /// Declared so far in the current proxy.
    private var declared: Set<String> = []
    /// Declared in any defaults section: a proxy that takes one shares them, so they are not
    /// refused anywhere.
    private var shared: Set<String> = []

    /// A new section starts.
    mutating func enter() { declared = [] }

    /// Reads one line of a proxy section of `kind`: an `acl` line declares its name; for a rule
    /// of a frontend, backend or listen section, the first name its condition uses that is
    /// declared nowhere above it, with HAProxy's words.
    mutating func read(_ line: HAProxyLine, kind: String) -> (word: HAProxyWord, message: String)? {
        let words = line.words
        if line.knownKeyword == .acl, words.count > 1 {
            if kind == "defaults" { shared.insert(words[1].text) } else { declared.insert(words[1].text) }
            return nil
        }
        guard kind != "defaults", let start = line.conditionStart else { return nil }
        var depth = 0
        for word in words[(start + 1)...] {
            // `!` negates the word it starts (`!{ ssl_fc }`, `!is_api`) or stands alone.
            let name = word.text.utf8.first == UInt8(ascii: "!") ? String(word.text.dropFirst()) : word.text
            if name == "{" { depth += 1 }
            if name == "}" { depth -= 1 }
            guard depth == 0, name != "}", name != "||", name.lowercased() != "or" else { continue }
            if name.isEmpty || declared.contains(name) || shared.contains(name) || Self.predefined.contains(name) { continue }
            return (word, "no such ACL : '\(name)': HAProxy refuses the file and stops reading it")
        }
        return nil
    }
}
