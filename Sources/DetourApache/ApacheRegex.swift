import Foundation

/// A PCRE from `AliasMatch`, `ProxyPassMatch` or `<LocationMatch>`, as Foundation's regular
/// expressions read it (close enough for the paths these name), with `$1`…`$9` substitution.
struct ApacheRegex: Sendable {
    private let expression: NSRegularExpression
    /// The literal path an anchored pattern starts with (`^/app/(.*)` → `/app/`), else `/`.
    let literalStart: String

    init?(_ pattern: String) {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return nil }
        self.expression = expression
        literalStart = Self.literalStart(of: pattern)
    }

    private static func literalStart(of pattern: String) -> String {
        guard pattern.hasPrefix("^/") else { return "/" }
        var start = ""
        for character in pattern.dropFirst() {
            guard !"\\.[](){}*+?|^$".contains(character) else { break }
            start.append(character)
        }
        // A quantifier binds to the character before it: that one is not certain.
        if let next = pattern.dropFirst(1 + start.count).first, "*?{".contains(next) { start.removeLast() }
        return start.isEmpty ? "/" : start
    }

    func matches(_ path: String) -> Bool {
        expression.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
    }

    /// `template` with `$N` replaced by the match's groups, or nil when `path` does not match.
    func substitute(_ path: String, into template: String) -> String? {
        guard let match = expression.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) else { return nil }
        var result = ""
        var characters = template[...]
        while let dollar = characters.firstIndex(of: "$") {
            result += characters[..<dollar]
            let next = characters.index(after: dollar)
            guard next < characters.endIndex, let group = characters[next].wholeNumberValue else {
                result += "$"
                characters = characters[next...]
                continue
            }
            if group < match.numberOfRanges, let range = Range(match.range(at: group), in: path) { result += path[range] }
            characters = characters[characters.index(after: next)...]
        }
        return result + characters
    }
}
