import Foundation

/// `{{> name}}` and `{{< name}}` tags found in a template's text, with their positions.
struct PartialReference: Equatable {
    var name: String
    var line: Int
    var column: Int

    /// Scans with the default delimiters; comments (`{{! … }}`) and dynamic names (`{{>*var}}`) are skipped.
    static func scan(_ text: String) -> [PartialReference] {
        var references: [PartialReference] = []
        let scalars = Array(text.unicodeScalars)
        var line = 1
        var lineStart = 0
        var index = 0
        while index < scalars.count {
            if scalars[index] == "\n" {
                line += 1
                lineStart = index + 1
                index += 1
                continue
            }
            guard scalars[index] == "{", index + 2 < scalars.count, scalars[index + 1] == "{" else {
                index += 1
                continue
            }
            let tagStart = index
            let sigil = scalars[index + 2]
            guard let close = closingBraces(in: scalars, from: index + 2) else { break }
            if sigil == ">" || sigil == "<" {
                let name = String(String.UnicodeScalarView(scalars[(index + 3)..<close])).trimmingCharacters(in: .whitespaces)
                if !name.isEmpty, !name.hasPrefix("*") {
                    references.append(PartialReference(name: name, line: line, column: tagStart - lineStart + 1))
                }
            }
            // Count newlines inside the tag (multi-line comments) to keep positions right.
            for position in index..<close where scalars[position] == "\n" {
                line += 1
                lineStart = position + 1
            }
            index = close + 2
        }
        return references
    }

    private static func closingBraces(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        while index + 1 < scalars.count {
            if scalars[index] == "}", scalars[index + 1] == "}" { return index }
            index += 1
        }
        return nil
    }
}
