import Foundation

/// Strings a PCRE pattern (a location `~`, a `path_regexp`, a `<LocationMatch>`) may match, so
/// that `detour verify` can ask for a route that only a regular expression names. The pattern is
/// read as a tree (sequences, alternatives, repeats, groups); each character class, escape or
/// `.` becomes one character it takes (asked of the regex engine itself), and the candidates
/// differ in which alternative each group takes and how often each repeat runs. They are
/// candidates only: the caller keeps one its server would really route to the pattern.
public enum RegexSample {
    /// Up to `limit` candidates, the plainest first (each repeat once, each group's first
    /// alternative); empty when the pattern cannot be read.
    public static func candidates(_ pattern: String, limit: Int = 48) -> [String] {
        var parser = Parser(Array(pattern))
        guard let tree = parser.alternatives(), parser.atEnd else { return [] }
        var seen = Set<String>()
        return tree.samples(limit: limit).filter { seen.insert($0).inserted }
    }

    /// Whether `path` reaches a server as written: it starts with `/`, holds no `//` (merged)
    /// and no `.` or `..` segment (resolved), and nothing a request line would have to escape.
    public static func isPlainPath(_ path: String) -> Bool {
        path.hasPrefix("/") && path.utf8.allSatisfy { plain.contains($0) } && !path.contains("//")
            && !path.split(separator: "/").contains { $0 == "." || $0 == ".." }
    }

    private static let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/".utf8)

    indirect enum Node {
        case text(String)
        case sequence([Node])
        case either([Node])
        case repeated(Node, counts: [Int])

        func samples(limit: Int) -> [String] {
            switch self {
            case .text(let text):
                return [text]
            case .sequence(let parts):
                var joined = [""]
                for part in parts {
                    let options = part.samples(limit: limit)
                    var next: [String] = []
                    // The plainest of everything before first: each part varied while the others stay plain.
                    outer: for option in options {
                        for head in joined {
                            next.append(head + option)
                            if next.count >= limit { break outer }
                        }
                    }
                    joined = next
                }
                return joined
            case .either(let branches):
                let lists = branches.map { $0.samples(limit: limit) }
                var merged: [String] = []
                // The first of each alternative, then the second of each, and so on.
                for rank in 0..<(lists.map(\.count).max() ?? 0) {
                    for list in lists where rank < list.count { merged.append(list[rank]) }
                }
                return Array(merged.prefix(limit))
            case .repeated(let node, let counts):
                let options = node.samples(limit: limit)
                var result: [String] = []
                for count in counts {
                    if count == 1 {
                        result += options
                    } else {
                        result.append(String(repeating: options.first ?? "", count: count))
                    }
                }
                return Array(result.prefix(limit))
            }
        }
    }

    /// Reads PCRE's syntax, as much of it as a route's pattern uses.
    struct Parser {
        let characters: [Character]
        var at = 0

        init(_ characters: [Character]) { self.characters = characters }

        var atEnd: Bool { at >= characters.count }

        mutating func alternatives() -> Node? {
            var branches: [Node] = []
            while true {
                guard let branch = sequence() else { return nil }
                branches.append(branch)
                guard !atEnd, characters[at] == "|" else { break }
                at += 1
            }
            return branches.count == 1 ? branches[0] : .either(branches)
        }

        mutating func sequence() -> Node? {
            var parts: [Node] = []
            while !atEnd, characters[at] != "|", characters[at] != ")" {
                guard let atom = atom() else { return nil }
                parts.append(quantified(atom))
            }
            return .sequence(parts)
        }

        /// How often a repeat runs, the plainest first: once where that is allowed.
        private mutating func quantified(_ atom: Node) -> Node {
            guard !atEnd else { return atom }
            var counts: [Int]
            switch characters[at] {
            case "*": counts = [1, 0]
            case "+": counts = [1, 2]
            case "?": counts = [1, 0]
            case "{":
                guard let close = characters[at...].firstIndex(of: "}") else { return atom }
                let bounds = String(characters[(at + 1)..<close]).split(separator: ",", omittingEmptySubsequences: false)
                guard let low = Int(bounds.first ?? ""), bounds.count <= 2 else { return atom }
                let high = bounds.count == 2 ? (bounds[1].isEmpty ? nil : Int(bounds[1])) : low
                counts = [low]
                if low == 0, high != 0 { counts = [1, 0] }
                at = close
            default:
                return atom
            }
            at += 1
            // Lazy and possessive forms match the same strings.
            if !atEnd, characters[at] == "?" || characters[at] == "+" { at += 1 }
            return .repeated(atom, counts: counts)
        }

        mutating func atom() -> Node? {
            let character = characters[at]
            switch character {
            case "^", "$":
                at += 1
                return .text("")
            case "(":
                return group()
            case "[":
                guard let end = classEnd(from: at) else { return nil }
                let source = String(characters[at...end])
                at = end + 1
                return Self.member(of: source).map { .text(String($0)) }
            case "\\":
                guard at + 1 < characters.count else { return nil }
                let escaped = characters[at + 1]
                at += 2
                if "bBAzZG".contains(escaped) { return .text("") }
                if escaped == "Q" {
                    let rest = String(characters[at...])
                    let quoted = rest.range(of: "\\E").map { String(rest[..<$0.lowerBound]) } ?? rest
                    at += quoted.count + (rest.contains("\\E") ? 2 : 0)
                    return .text(quoted)
                }
                if escaped.isLetter || escaped.isNumber { return Self.member(of: "\\\(escaped)").map { .text(String($0)) } }
                return .text(String(escaped))
            case ".":
                at += 1
                return .text("a")
            default:
                at += 1
                return .text(String(character))
            }
        }

        private mutating func group() -> Node? {
            at += 1
            var lookaround = false
            if at < characters.count, characters[at] == "?" {
                at += 1
                guard !atEnd else { return nil }
                switch characters[at] {
                case ":", ">": at += 1
                case "=", "!": (lookaround, at) = (true, at + 1)
                case "<" where at + 1 < characters.count && (characters[at + 1] == "=" || characters[at + 1] == "!"): (lookaround, at) = (true, at + 2)
                case "<", "P", "'":
                    // A named group, `(?<name>`, `(?P<name>` or `(?'name'`: its name is skipped.
                    let closing: Character = characters[at] == "'" ? "'" : ">"
                    guard let close = characters[(at + 1)...].firstIndex(of: closing) else { return nil }
                    at = close + 1
                default:
                    // Option settings: `(?i)` alone, or `(?i:…)` as a group.
                    while !atEnd, characters[at].isLetter || characters[at] == "-" { at += 1 }
                    guard !atEnd else { return nil }
                    if characters[at] == ")" {
                        at += 1
                        return .text("")
                    }
                    at += 1
                }
            }
            guard let inner = alternatives(), !atEnd, characters[at] == ")" else { return nil }
            at += 1
            return lookaround ? .text("") : inner
        }

        /// The `]` that closes the class opened at `start` (a `]` first in it is a member).
        private func classEnd(from start: Int) -> Int? {
            var index = start + 1
            if index < characters.count, characters[index] == "^" { index += 1 }
            if index < characters.count, characters[index] == "]" { index += 1 }
            while index < characters.count {
                switch characters[index] {
                case "\\": index += 2
                case "[" where index + 1 < characters.count && characters[index + 1] == ":":
                    guard let close = characters[(index + 2)...].firstIndex(of: "]") else { return nil }
                    index = close + 1
                case "]": return index
                default: index += 1
                }
            }
            return nil
        }

        /// Preferred members of a class: letters and digits read best in a URL.
        static let preferred = Array("a1xz0-_.~/") + (32...126).map { Character(UnicodeScalar($0)) }

        /// A character the class (or escape) `source` matches, asked of the regex engine.
        static func member(of source: String) -> Character? {
            guard let regex = try? NSRegularExpression(pattern: "^" + source + "$") else { return nil }
            return preferred.first { character in
                let text = String(character)
                return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            }
        }
    }
}
