/// What HAProxy refuses in one proxy line's expressions and arguments, in its words: an HTTP
/// rule's action given a number of arguments it does not take, an `acl` line's expression, a
/// rule's anonymous ACLs (`if { req.hdr(x) -m found }`), the expression a rule's action reads
/// (`set-var(txn.x) EXPR`, `track-sc0 EXPR`, `capture EXPR`) and the `%[…]` of its log-format
/// arguments (`set-header X %[src]`, `use_backend %[…]`, `log-format`).
struct HAProxySampleRefusals {
    var reader: HAProxySampleReader

    /// Lines whose words after the keyword (up to a condition) are log-format strings or hold them.
    /// (The legacy `redirect` keyword's location is literal text: src/http_rules.c reads it
    /// without a format, unlike `http-request redirect`.)
    private static func isFormatted(_ keyword: HAProxyKeyword?) -> Bool {
        switch keyword {
        case .httpRequest, .httpResponse, .httpAfterResponse, .tcpRequest, .tcpResponse, .useBackend, .logFormat, .logFormatSD, .errorLogFormat,
            .uniqueIDFormat:
            true
        default: false
        }
    }
    /// The actions whose next word is a sample expression.
    private static let sampled: Set<String> = ["track-sc0", "track-sc1", "track-sc2", "capture"]

    /// The first refusal of `line` in a section of `kind` named `name`: the word it is at, HAProxy's
    /// words, and whether HAProxy stops reading the file there (a rule's; an `acl` line's it
    /// reports and reads on).
    mutating func refusal(of line: HAProxyLine, kind: String, name: String?) -> (word: HAProxyWord, message: String, stops: Bool)? {
        let words = line.words
        if line.knownKeyword == .acl, words.count > 2 {
            do {
                try reader.acl(words[2].text, options: words[3...].lazy.map(\.text))
            } catch {
                return (words[2], "error detected while parsing ACL '\(words[1].text)' : \(error.message).", false)
            }
            return nil
        }
        guard kind != "defaults", Self.isFormatted(line.knownKeyword), words.count > 1 else { return nil }
        let conditionStart = line.conditionStart ?? words.count
        let actionIndex = line.actionIndex
        let isHTTPRule = line.keyword.hasPrefix("http-")
        // The rule as HAProxy names it, worked out only for a refusal: most lines have none.
        func rule() -> String { words[..<min(actionIndex + 1, conditionStart)].map(\.text).joined(separator: " ") }
        func ruleWords() -> String { "error detected in \(kind) '\(name ?? "")' while parsing '\(rule())' rule : " }
        // The action's arguments: HAProxy reads them up to the condition, or to an empty word
        // (an environment variable that is not set) where it sees none.
        if isHTTPRule, conditionStart > 1 {
            let arguments = words[2..<conditionStart].prefix { !$0.text.isEmpty }.count
            if let refusal = HAProxyActionTable.shared.refusal(line.keyword, words[1].text, count: arguments) {
                return (words[1], ruleWords() + refusal, true)
            }
        }
        for index in 1..<conditionStart {
            let text = words[index].text
            do {
                if index > 1, index - 1 == actionIndex,
                    words[actionIndex].text.hasPrefix("set-var(") || Self.sampled.contains(words[actionIndex].text)
                {
                    try reader.sample(text)
                } else if text.utf8.contains(UInt8(ascii: "%")), text.contains("%[") || text.contains("%{") {
                    try reader.logFormat(text)
                }
            } catch {
                return (words[index], (isHTTPRule ? ruleWords() : "'\(rule())': ") + error.message + ".", isHTTPRule)
            }
        }
        // Each anonymous ACL of the condition.
        var index = conditionStart
        while index < words.count {
            guard words[index].text == "{" || words[index].text == "!{" else {
                index += 1
                continue
            }
            let end = words[(index + 1)...].firstIndex { $0.text == "}" } ?? words.count
            do {
                if index + 1 < end { try reader.acl(words[index + 1].text, options: words[(index + 2)..<end].lazy.map(\.text)) }
            } catch {
                return (words[min(index + 1, words.count - 1)], "error detected while parsing an '\(rule())' condition : \(error.message).", isHTTPRule)
            }
            index = end + 1
        }
        return nil
    }
}
