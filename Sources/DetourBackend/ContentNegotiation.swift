/// The format and language a request asks for, as `Accept` and `Accept-Language` weigh them
/// (RFC 9110 §12.5): the highest quality wins, a more specific range over a wider one, the
/// server's order (HTML, JSON, text; the default language) on a tie.
enum ContentNegotiation {
    struct Range {
        var value: String
        var quality: Double
    }

    /// `text/html;q=0.9, */*;q=0.1` → its ranges, lowercased, with their qualities. Read byte by
    /// byte: it runs for every request, and a header is ASCII when it is anything we answer.
    static func ranges(_ header: String) -> [Range] {
        var ranges: [Range] = []
        for part in header.utf8.split(separator: UInt8(ascii: ","), maxSplits: 64) {
            var pieces = part.split(separator: UInt8(ascii: ";"))[...]
            guard let first = pieces.popFirst(), case let value = lowercased(trimmed(first)), !value.isEmpty else { continue }
            var quality = 1.0
            for parameter in pieces {
                let pair = parameter.split(separator: UInt8(ascii: "="), maxSplits: 1)
                guard pair.count == 2, lowercased(trimmed(pair[0])) == "q", let number = Double(String(decoding: trimmed(pair[1]), as: UTF8.self)),
                    (0...1).contains(number)
                else { continue }
                quality = number
            }
            ranges.append(Range(value: value, quality: quality))
            if ranges.count == 64 { break }
        }
        return ranges
    }

    private static func trimmed(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let start = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else { return bytes[bytes.endIndex...] }
        return bytes[start...last]
    }

    private static func lowercased(_ bytes: Substring.UTF8View.SubSequence) -> String {
        String(decoding: bytes.lazy.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The media types each format answers: its own, and the plain JSON type for problem details.
    static func format(accept header: String?, formats: [(name: String, types: [String])]) -> String {
        guard let header, !header.isEmpty else { return formats[0].name }
        let ranges = ranges(header)
        var best: (name: String, quality: Double, specificity: Int)?
        for format in formats {
            // The most specific range that matches decides this format's quality.
            var match: (quality: Double, specificity: Int)?
            for range in ranges {
                let specificity: Int
                if format.types.contains(range.value) {
                    specificity = 2
                } else if range.value.hasSuffix("/*"), format.types.contains(where: { $0.hasPrefix(range.value.dropLast()) }) {
                    specificity = 1
                } else if range.value == "*/*" || range.value == "*" {
                    specificity = 0
                } else {
                    continue
                }
                if match == nil || specificity > match!.specificity { match = (range.quality, specificity) }
            }
            guard let match, match.quality > 0 else { continue }
            if best == nil || match.quality > best!.quality || (match.quality == best!.quality && match.specificity > best!.specificity) {
                best = (format.name, match.quality, match.specificity)
            }
        }
        return best?.name ?? formats[0].name
    }

    /// The site language `Accept-Language` prefers: a tag matches itself, its primary language
    /// (`de-CH` asks for `de`) and the ranges it begins (`pt` takes `pt-BR`).
    static func language(acceptLanguage header: String?, languages: [String]) -> String {
        guard let header, !header.isEmpty else { return languages[0] }
        var best: (language: String, quality: Double)?
        for range in ranges(header) where range.quality > 0 {
            let wanted = range.value
            let found =
                languages.first { $0.lowercased() == wanted }
                ?? languages.first { wanted.hasPrefix($0.lowercased() + "-") }
                ?? languages.first { $0.lowercased().hasPrefix(wanted + "-") }
            guard let found else { continue }
            if best == nil || range.quality > best!.quality { best = (found, range.quality) }
        }
        return best?.language ?? languages[0]
    }
}
