import Foundation

/// How many arguments each site-block directive of Caddy 2.6 takes on a line without a block,
/// after its name and after a matcher: probed from the real `caddy adapt` by
/// scripts/caddy-directives/probe.py (CaddyArgumentData.swift). A line with a block is judged
/// by a table of its own: a block changes what some directives need (`tls {` takes none,
/// Caddy 1's `rewrite {` is refused).
struct CaddyArgumentTable: Sendable {
    static let shared = CaddyArgumentTable(caddyArgumentData, blocks: caddyBlockArgumentData)

    /// Bit n: n arguments taken (n ≤ 8); `orMore`: every count from the last bit up too.
    struct Counts: Sendable {
        var bits: UInt16 = 0
        var orMore = false

        init(_ text: Substring) {
            for part in text.split(separator: ",") where part != "-" {
                if part.hasSuffix("+"), let low = Int(part.dropLast()) {
                    for n in low...8 { bits |= 1 << n }
                    orMore = true
                } else if let dash = part.firstIndex(of: "-"), let low = Int(part[..<dash]), let high = Int(part[part.index(after: dash)...]) {
                    for n in low...min(high, 8) { bits |= 1 << n }
                } else if let n = Int(part), n <= 8 {
                    bits |= 1 << n
                }
            }
        }

        func takes(_ count: Int) -> Bool { count > 8 ? orMore : bits & (1 << count) != 0 }
    }

    private var entries: [String: (plain: Counts, matched: Counts)] = [:]
    /// Words a directive takes as its only argument where it takes no other (`file_server browse`).
    private var keywords: [String: Set<String>] = [:]

    /// For a line with a block, by argument count (0 to 4): `.` where Caddy takes it, else the
    /// word its refusal names (`n` the name, `m` the matcher, a digit that argument, `{` or `}`);
    /// then for a block whose `{` is alone on the next line.
    private var blockEntries: [String: (plain: [Character], matched: [Character], nextPlain: [Character], nextMatched: [Character])] = [:]

    init(_ data: String, blocks: String = "") {
        for line in data.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard fields.count == 3 || fields.count == 4 else { continue }
            entries[String(fields[0])] = (Counts(fields[1]), Counts(fields[2]))
            if fields.count == 4 { keywords[String(fields[0])] = Set(fields[3].split(separator: ",").map(String.init)) }
        }
        for line in blocks.split(separator: "\n") {
            let fields = line.split(separator: "\t").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 5 else { continue }
            blockEntries[fields[0]] = (Array(fields[1]), Array(fields[2]), Array(fields[3]), Array(fields[4]))
        }
    }

    /// What Caddy refuses of a line that opens a block, in its words, at the word it names; nil
    /// when it takes the line, the line has no block, or more arguments than were probed.
    func blockRefusal(of line: CaddyLine) -> (word: CaddyToken, message: String)? {
        guard let name = line.first, let columns = blockEntries[name.text],
            let brace = line.firstIndex(where: { $0.text == "{" && !$0.isQuoted })
        else { return nil }
        let words = line[1..<brace]
        let matched = words.first.map(CaddyErrorRoute.isMatcher) ?? false
        let arguments = matched ? words.dropFirst() : words
        // Caddy joins a `{` alone on the next line to the directive; a block must open on the
        // directive's line for the parsers that read one.
        let nextLine = line[brace].line > line[brace - 1].line + line[brace - 1].lineBreaks
        let column = nextLine ? (matched ? columns.nextMatched : columns.nextPlain) : (matched ? columns.matched : columns.plain)
        guard arguments.count < column.count else { return nil }
        let named: CaddyToken
        switch column[arguments.count] {
        case "n": named = name
        case "m": named = words[words.startIndex]
        case "{": return (line[brace], "Unexpected token '{', expecting argument")
        case "}":
            // Probed with an empty block: a block with lines (`tls { protocols … }`) is taken.
            let inside = CaddyDirectiveCheck.block(inside: line)
            guard inside.lines.isEmpty, let closing = inside.closing else { return nil }
            named = closing
        case let digit where digit.isNumber:
            guard let index = digit.wholeNumberValue, index < arguments.count else { return nil }
            named = arguments[arguments.startIndex + index]
        default: return nil
        }
        return (named, "Wrong argument count or unexpected line ending after '\(named.text)'")
    }

    /// The word Caddy names when it refuses the line's argument count (the first one too many,
    /// the matcher of one that takes none, or the last when there are too few), nil when it
    /// takes them or the line has a block.
    func refusal(of line: CaddyLine) -> CaddyToken? {
        guard let name = line.first, let counts = entries[name.text], !line.contains(where: { $0.text == "{" && !$0.isQuoted }) else { return nil }
        let words = line.dropFirst()
        let matched = words.first.map(CaddyErrorRoute.isMatcher) ?? false
        let taken = matched ? counts.matched : counts.plain
        let arguments = matched ? words.dropFirst() : words
        guard !taken.takes(arguments.count) else { return nil }
        if arguments.count == 1, keywords[name.text]?.contains(arguments[arguments.startIndex].text) == true { return nil }
        // A keyword taken alone leaves the word after it as the one too many (`file_server browse x`).
        if arguments.count > 1, keywords[name.text]?.contains(arguments[arguments.startIndex].text) == true {
            return arguments[arguments.startIndex + 1]
        }
        // One that takes no argument there reads its first word as one too many (`log /`).
        if taken.bits == 0 { return words.first }
        if let most = (0..<min(arguments.count, 9)).last(where: taken.takes) {
            return arguments[arguments.startIndex + most]
        }
        return line.last
    }
}
