/// The keywords each kind of section takes in HAProxy 2.6, the `option` names a proxy takes,
/// and HAProxy's own words for a line it refuses: derived from the haproxy binary by
/// scripts/haproxy-keywords/derive.py (HAProxyKeywordData.swift).
struct HAProxyKeywordTable: Sendable {
    static let shared = HAProxyKeywordTable(haproxyKeywordData)

    /// What HAProxy 2.6 says of a keyword (or `option NAME`) a kind of section does not know, `%s` for it.
    private var unknownKeyword: [String: String] = [:]
    private var unknownOption: [String: String] = [:]
    /// Per kind of section, each keyword (`option NAME` for an option) it takes, with what HAProxy
    /// says when it refuses it whatever its arguments (empty when it does not).
    private var known: [String: [String: String]] = [:]

    init(_ data: String) {
        for line in data.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 2 else { continue }
            switch fields[0] {
            case "section" where fields.count == 3: unknownKeyword[fields[1]] = fields[2]
            case "options" where fields.count == 3: unknownOption[fields[1]] = fields[2]
            default: known[fields[0], default: [:]][fields[1]] = fields.count > 2 ? fields[2] : ""
            }
        }
    }

    /// What HAProxy says of `line` in a section of `kind` named `name`; nil when it takes the
    /// line's keyword (or the table knows nothing of the kind). `removed`: HAProxy refuses the
    /// keyword whatever its arguments (one it no longer supports, or a backend's in a frontend),
    /// rather than not knowing it.
    func refusal(of line: HAProxyLine, in kind: String, named name: String?) -> (message: String, removed: Bool)? {
        guard let keywords = known[kind] else { return nil }
        var key = line.keyword
        var form = unknownKeyword[kind]
        // `option NAME` and `no option NAME`: the option's name is what HAProxy looks up.
        let optionIndex = key == "option" ? 1 : key == "no" && line.words.count > 1 && line.words[1].text == "option" ? 2 : nil
        if let optionIndex, line.words.count > optionIndex, unknownOption[kind] != nil {
            key = "option " + line.words[optionIndex].text
            form = unknownOption[kind]
        }
        if let said = keywords[key] { return said.isEmpty ? nil : (said.replacingOccurrences(of: "%p", with: name ?? ""), true) }
        guard let form else { return nil }
        let word = optionIndex != nil && key.hasPrefix("option ") ? String(key.dropFirst("option ".count)) : key
        return (form.replacingOccurrences(of: "%s", with: word), false)
    }
}
