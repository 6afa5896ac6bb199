import DetourSupport

/// The keywords each kind of section takes in HAProxy 2.6, the `option` names a proxy takes,
/// and HAProxy's own words for a line it refuses: derived from the haproxy binary by
/// scripts/haproxy-keywords/derive.py (HAProxyKeywordData.swift).
struct HAProxyKeywordTable: Sendable {
    static let shared = HAProxyKeywordTable(haproxyKeywordData)

    /// What one kind of section takes: a reader looks its kind up once per section, then each
    /// line's keyword.
    struct Kind: Sendable {
        /// What HAProxy 2.6 says of a keyword (or `option NAME`) it does not know, `%s` for it.
        var unknownKeyword = ""
        var unknownOption: String?
        /// Each keyword (`option NAME` for an option) it takes, with what HAProxy says when it
        /// refuses it whatever its arguments (empty when it does not).
        var known: [String: String] = [:]

        /// What HAProxy says of `line` in a section of this kind named `name`; nil when it
        /// takes the line's keyword. `removed`: HAProxy refuses the keyword whatever its
        /// arguments (one it no longer supports, or a backend's in a frontend), rather than not
        /// knowing it.
        func refusal(of line: HAProxyLine, named name: String?) -> (message: String, removed: Bool)? {
            let keyword = line.words[0].text
            // `option NAME` and `no option NAME`: the option's name is what HAProxy looks up.
            let optionIndex = keyword == "option" ? 1 : keyword == "no" && line.words.count > 1 && line.words[1].text == "option" ? 2 : nil
            if let optionIndex, line.words.count > optionIndex, let unknownOption {
                let option = line.words[optionIndex].text
                if let said = known["option " + option] { return said.isEmpty ? nil : (said.replacingOccurrences(of: "%p", with: name ?? ""), true) }
                return (unknownOption.replacingOccurrences(of: "%s", with: option), false)
            }
            if let said = known[keyword] { return said.isEmpty ? nil : (said.replacingOccurrences(of: "%p", with: name ?? ""), true) }
            return (unknownKeyword.replacingOccurrences(of: "%s", with: keyword), false)
        }
    }

    private var kinds: [String: Kind] = [:]

    /// The table's lines, `KIND<tab>KEYWORD[<tab>REFUSAL]`, `section<tab>KIND<tab>FORM`,
    /// `options<tab>KIND<tab>FORM`, read byte by byte: a check reads it at every start.
    init(_ data: String) {
        FieldLines.forEach(in: Array(data.utf8), separator: UInt8(ascii: "\t")) { fields in
            guard fields.count >= 2 else { return true }
            let kind = FieldLines.string(fields[0])
            let name = FieldLines.string(fields[1])
            switch kind {
            case "section" where fields.count == 3: kinds[name, default: Kind()].unknownKeyword = FieldLines.string(fields[2])
            case "options" where fields.count == 3: kinds[name, default: Kind()].unknownOption = FieldLines.string(fields[2])
            default: kinds[kind, default: Kind()].known[name] = fields.count > 2 ? FieldLines.string(fields[2]) : ""
            }
            return true
        }
    }

    /// What a kind of section takes; nil for a kind the table does not know.
    func kind(_ name: String) -> Kind? { kinds[name] }
}
