/// A term file of the index (`t<n>.js`, or `l.js`) read back to be patched: its call's head,
/// its term lines in order and its forms, each with the term or word it is for, and the log
/// file's site counts.
struct SearchIndexTermFile {
    /// `detourSearch.terms("en",3,` or `detourSearch.logs("en",26,`.
    var head: String
    var lines: [(term: String, text: String)]
    var forms: [(word: String, stem: String)]
    /// The log file's: for each of its terms the site's term shards have, the count of records
    /// there (its line's first number), by term.
    var siteCounts: [(term: String, count: Int)]?

    /// Nil when `text` is not `head{lines},{forms});\n` (or `head{lines},{forms},{counts});\n`)
    /// as the builder writes it.
    init?(_ text: String, head: String) {
        guard text.hasPrefix(head + "{"), text.hasSuffix("});\n") else { return nil }
        self.head = head
        var scanner = Scanner(Array(text.utf8.dropFirst(head.utf8.count + 1).dropLast(3)))
        // Terms: `"term":[numbers]` joined by `,\n`; forms `"word":"stem"`; counts `"term":count`.
        guard
            let lines = scanner.members(
                separator: ",\n",
                { (scanner: inout Scanner) -> (term: String, text: String)? in
                    let start = scanner.index
                    guard let term = scanner.literal(), scanner.skip(":["), scanner.skipNumbers(), scanner.skip("]") else { return nil }
                    return (term, scanner.text(from: start))
                }),
            scanner.skip(",{"),
            let forms = scanner.members({ (scanner: inout Scanner) -> (word: String, stem: String)? in
                guard let word = scanner.literal(), scanner.skip(":"), let stem = scanner.literal() else { return nil }
                return (word, stem)
            })
        else { return nil }
        (self.lines, self.forms) = (lines, forms)
        if scanner.skip(",{") {
            guard
                let counts = scanner.members({ (scanner: inout Scanner) -> (term: String, count: Int)? in
                    guard let term = scanner.literal(), scanner.skip(":"), let count = scanner.number() else { return nil }
                    return (term, count)
                })
            else { return nil }
            siteCounts = counts
        }
        guard scanner.atEnd else { return nil }
    }

    var text: String {
        head + body + (siteCounts.map { "," + Self.countObject($0) } ?? "") + ");\n"
    }

    /// `{lines},{forms}`: what a file's budget counts.
    var body: String {
        "{" + lines.map(\.text).joined(separator: ",\n") + "},{" + forms.map { SearchIndexBuilder.formPair($0.word, $0.stem) }.joined(separator: ",") + "}"
    }

    /// `{"term":count,…}`, in the order given.
    static func countObject(_ counts: [(term: String, count: Int)]) -> String {
        "{" + counts.map { SearchIndexBuilder.literal($0.term) + ":\($0.count)" }.joined(separator: ",") + "}"
    }

    /// Sets the site count of `term`, or takes it out (nil); false when it was so already.
    mutating func setSiteCount(_ term: String, _ count: Int?) -> Bool {
        guard var counts = siteCounts else { return false }
        let index = counts.partitionPoint { $0.term >= term }
        let found = index < counts.count && counts[index].term == term
        switch (found, count) {
        case (true, let count?) where counts[index].count == count: return false
        case (true, let count?): counts[index].count = count
        case (true, nil): counts.remove(at: index)
        case (false, let count?): counts.insert((term, count), at: index)
        case (false, nil): return false
        }
        siteCounts = counts
        return true
    }

    /// The line of `term`, if there is one, or where it goes.
    func line(of term: String) -> (index: Int, found: Bool) {
        let index = lines.partitionPoint { $0.term >= term }
        return (index, index < lines.count && lines[index].term == term)
    }

    /// The text of `term`'s line, nil when it has none.
    func text(of term: String) -> String? {
        let (index, found) = line(of: term)
        return found ? lines[index].text : nil
    }

    /// Adds the form `word` of `stem`, or takes it out; false when it already was, or was not.
    mutating func setForm(_ word: String, _ stem: String, present: Bool) -> Bool {
        let index = forms.partitionPoint { $0.word >= word }
        guard (index < forms.count && forms[index].word == word) != present else { return false }
        if present { forms.insert((word, stem), at: index) } else { forms.remove(at: index) }
        return true
    }

    /// A term line's postings count and its postings (reference, impact), in the line's order;
    /// nil when it is not as written.
    static func postings(of line: String) -> (count: Int, postings: [SearchIndexBuilder.Ranked])? {
        guard let numbers = numbers(of: line), numbers.count % 2 == 1 else { return nil }
        var postings: [SearchIndexBuilder.Ranked] = []
        for at in stride(from: 1, to: numbers.count, by: 2) {
            guard let impact = UInt8(exactly: numbers[at + 1]) else { return nil }
            postings.append((Int32(numbers[at]), impact))
        }
        return (numbers[0], postings)
    }

    /// A term line's numbers: the term's postings count, then reference and impact pairs.
    /// Read byte by byte: split into substrings, a term's line took a fifth of a rebuild that
    /// removed a paragraph.
    static func numbers(of line: String) -> [Int]? {
        let bytes = line.utf8
        guard bytes.last == UInt8(ascii: "]"), let open = bytes.lastIndex(of: UInt8(ascii: "[")) else { return nil }
        var numbers: [Int] = []
        var (value, digits) = (0, 0)
        for byte in bytes[bytes.index(after: open)..<bytes.index(before: bytes.endIndex)] {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard digits < 18 else { return nil }
                (value, digits) = (value * 10 + Int(byte - UInt8(ascii: "0")), digits + 1)
            case UInt8(ascii: ","):
                guard digits > 0 else { return nil }
                numbers.append(value)
                (value, digits) = (0, 0)
            default: return nil
            }
        }
        guard digits > 0 else { return nil }
        numbers.append(value)
        return numbers.count % 2 == 1 ? numbers : nil
    }

    /// Reads the builder's JSON: string literals with the escapes `JSONString` writes.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func skip(_ expected: String) -> Bool {
            let count = expected.utf8.count
            guard index + count <= bytes.count, bytes[index..<index + count].elementsEqual(expected.utf8) else { return false }
            index += count
            return true
        }

        /// An object's members to its `}` (its `{` read), each read by `member`; nil when one is not.
        mutating func members<Member>(separator: String = ",", _ member: (inout Scanner) -> Member?) -> [Member]? {
            var members: [Member] = []
            if skip("}") { return members }
            repeat {
                guard let next = member(&self) else { return nil }
                members.append(next)
            } while skip(separator)
            return skip("}") ? members : nil
        }

        mutating func number() -> Int? {
            var value = 0
            let start = index
            while index < bytes.count, index - start < 18, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return index > start ? value : nil
        }

        mutating func skipNumbers() -> Bool {
            let start = index
            while index < bytes.count, bytes[index] == UInt8(ascii: ",") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index > start
        }

        func text(from start: Int) -> String { String(decoding: bytes[start..<index], as: UTF8.self) }

        mutating func literal() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escaped = bytes[index]
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
                    case UInt8(ascii: "r"): out.append(UInt8(ascii: "\r"))
                    case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
                            let scalar = Unicode.Scalar(value)
                        else { return nil }
                        index += 4
                        out += Array(String(Character(scalar)).utf8)
                    default: out.append(escaped)
                    }
                default:
                    out.append(byte)
                }
            }
            return nil
        }
    }
}

extension Array {
    /// The first index whose element satisfies `belongsAfter`, for elements sorted so that
    /// every one that does comes after every one that does not.
    func partitionPoint(_ belongsAfter: (Element) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if belongsAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
