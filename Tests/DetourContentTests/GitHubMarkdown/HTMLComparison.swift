import Foundation

/// HTML made comparable: white space between tags and at line ends dropped, each tag's
/// attributes sorted.
enum HTMLComparison {
    static func normalize(_ html: String) -> String {
        var text = html.replacingOccurrences(of: #">\s+<"#, with: "><", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\s+\n"#, with: "\n", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\n+"#, with: "\n", options: .regularExpression)
        let tag = try! NSRegularExpression(pattern: #"<([a-z0-9]+)((?:\s+[a-z-]+="[^"]*")+)\s*(/?)>"#)
        var result = ""
        var last = text.startIndex
        for match in tag.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let whole = Range(match.range, in: text), let name = Range(match.range(at: 1), in: text),
                let attributes = Range(match.range(at: 2), in: text), let slash = Range(match.range(at: 3), in: text)
            else { continue }
            result += text[last..<whole.lowerBound]
            let sorted = text[attributes].split(separator: " ", omittingEmptySubsequences: true).sorted().joined(separator: " ")
            result += "<\(text[name]) \(sorted)\(text[slash])>"
            last = whole.upperBound
        }
        result += text[last...]
        return result.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
