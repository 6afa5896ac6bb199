import DetourTestSupport

/// Writes Markdown documents around GitHub tables for the differential test: ragged rows, pipes in
/// code spans and escaped, alignment rows right and wrong, tables after a paragraph line, inside
/// lists and block quotes, and ended by every kind of line. A URL is followed by a space: where
/// markup follows one directly, cmark-gfm reads the markup's source into the link, which detour,
/// finding autolinks in parsed text, does not (ARCHITECTURE.md).
struct GitHubTableGenerator {
    var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(state: seed)
    }

    private static let cellTexts = [
        "word", "two words", "`code`", "`a|b`", "`a\\|b`", "a \\| b", "*emph*", "**strong**", "_under_", "[link](/x)", "~~gone~~",
        "www.example.com ", "https://example.com/a?b=1. ", "user@example.com", "", " ", "# not a heading", "- not a list", "> not a quote",
        "1. one", "back\\", "&amp;", "<b>raw</b>", "\"quoted\"", "it's", "--", "`` ` ``", "![img](/i.png)", "a*b", "日本語", "x  ",
    ]

    private static let endings = [
        "", "\n", "\nafter paragraph", "\n> quote", "\n- item", "\n2. item", "\n---", "\n***", "\n# heading", "\n```\ncode\n```",
        "\nplain line", "\n    indented", "\n===", "\n<div>", "\n| |", "\n|", "\n\\| escaped", "\n-",
    ]

    mutating func document() -> String {
        let (prefix, continuation) = context()
        var lines: [String] = []
        if chance(0.3) { lines.append(pick(["Intro text", "Some *emphasis* first", "a | b", "Text with `code`"])) }
        let columns = Int.random(in: 1...4, using: &random)
        lines.append(row(columns))
        lines.append(delimiter(chance(0.1) ? columns + pick([-1, 1]) : columns))
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let count = max(1, columns + (chance(0.3) ? Int.random(in: -1...2, using: &random) : 0))
            lines.append(String(repeating: " ", count: chance(0.15) ? Int.random(in: 1...5, using: &random) : 0) + row(count))
        }
        let ending = pick(Self.endings)
        lines += ending.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map(String.init)
        // A `---` under a table was a setext underline to libcmark; in a list item, a blank line
        // after it loosens the list there and not in cmark-gfm, where it is a thematic break
        // (ARCHITECTURE.md).
        let inList = prefix.contains("-") || prefix.contains("1.")
        if !ending.isEmpty, ending != "\n---" || !inList, chance(0.3) {
            lines += ["", "Closing paragraph."]
        }
        var text = ""
        for (index, line) in lines.enumerated() {
            text += (index == 0 ? prefix : continuation) + line + "\n"
        }
        return text
    }

    /// What the table sits in: the first line's prefix and every other line's.
    private mutating func context() -> (String, String) {
        switch Int.random(in: 0..<7, using: &random) {
        case 0: return ("", "")
        case 1: return ("> ", "> ")
        case 2: return ("- ", "  ")
        case 3: return ("1. ", "   ")
        case 4: return ("- > ", "  > ")
        case 5: return ("> - ", ">   ")
        default: return ("  ", "  ")
        }
    }

    private mutating func row(_ count: Int) -> String {
        let cells = (0..<count).map { _ in pick(Self.cellTexts) }
        return frame(cells, single: count == 1)
    }

    private mutating func delimiter(_ count: Int) -> String {
        let cells = (0..<max(count, 1)).map { _ -> String in
            let dashes = String(repeating: "-", count: Int.random(in: 1...4, using: &random))
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return ":" + dashes
            case 1: return dashes + ":"
            case 2: return ":" + dashes + ":"
            default: return dashes
            }
        }
        return frame(cells, single: count <= 1)
    }

    /// Cells joined by pipes, with or without the outer ones (a single column keeps one).
    private mutating func frame(_ cells: [String], single: Bool) -> String {
        let spacing = chance(0.5) ? " " : ""
        let inner = cells.joined(separator: spacing + "|" + spacing)
        switch Int.random(in: 0..<4, using: &random) {
        case 0 where !single: return inner
        case 1: return "|" + spacing + inner
        case 2 where !single: return inner + spacing + "|"
        default: return "|" + spacing + inner + spacing + "|"
        }
    }

    private mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }

    private mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
}
