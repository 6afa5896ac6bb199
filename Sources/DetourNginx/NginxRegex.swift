import Foundation

/// nginx's PCRE patterns (location `~`, `if`, `rewrite`) read with ICU, which spells a named
/// group `(?<name>…)` where PCRE also takes `(?P<name>…)`.
enum NginxRegex {
    static func compile(_ pattern: String, caseless: Bool = false) -> NSRegularExpression? {
        try? NSRegularExpression(pattern: pattern.replacingOccurrences(of: "(?P<", with: "(?<"), options: caseless ? [.caseInsensitive] : [])
    }
}
