/// HAProxy 2.6's reading of sample expressions (`req.hdr(host),lower`), of ACL expressions
/// (`hdr_beg(host) -i www.`) and of the `%[…]` in log-format strings, with its words for what it
/// refuses (sample_parse_expr() in src/sample.c, make_arg_list() in src/arg.c, parse_acl_expr()
/// in src/acl.c, parse_logformat_string() in src/log.c). A fetch or converter the table does not
/// know is refused only when reading for 2.6 (`refusesUnknown`); where a newer HAProxy's keyword
/// is met, the rest of that expression is not judged.
struct HAProxySampleReader {
    /// Read at the first expression: most configurations' start needs no table.
    private var table: HAProxySampleTable { .shared }
    /// Asked only when an unknown keyword is met: the installed version is a process to run.
    var refusesUnknown: @Sendable () -> Bool = { true }
    /// Whether the configuration loads Lua scripts, which register fetches and converters of
    /// their own (`lua.NAME`): those are not judged then, and refused otherwise.
    var loadsLua = false
    /// Whether a map converter has named the empty pattern file already.
    private var openedEmptyPatternFile = false
    /// Where the pattern files of `-f` and map converters are looked for (nil: not judged).
    var patternFiles: HAProxyFileLookup?
    /// The pattern files named so far: HAProxy opens each name once, and a name it could not
    /// open is not refused again.
    private var namedPatternFiles: Set<String> = []
    /// The log-format strings and expressions read so far and taken: configurations repeat them.
    private var readWords: Set<String> = []
    /// Each ACL's first word read so far: what it gives (nil: not judged).
    private var readACLs: [String: (matched: Bool, named: String)?] = [:]

    init(refusesUnknown: @escaping @Sendable () -> Bool = { true }) {
        self.refusesUnknown = refusesUnknown
    }

    /// HAProxy's words for an expression it refuses.
    struct Refusal: Error { var message: String }
    /// A keyword this table does not know, met reading for another version: nothing more is judged.
    private struct Unjudged: Error {}
    private struct ArgumentFailure: Error {
        var message: String
        /// The argument it names, from 0.
        var position: Int
    }

    /// The ways `-m` names a matching method (pat_match_names[] in src/pattern.c).
    static let matchingMethods: Set<String> = ["found", "bool", "int", "ip", "bin", "len", "str", "beg", "sub", "dir", "dom", "end", "reg", "regm"]
    /// The types an ACL matches without a method named (the others need `-m`).
    private static let matchedTypes: Set<String> = ["bool", "sint", "addr", "ipv4", "ipv6", "str"]

    /// The refusal of a log-format string's first bad `%[…]` (`%{+Q}[…]` too), in HAProxy's
    /// words; other `%` sequences are not judged.
    mutating func logFormat(_ text: String) throws(Refusal) {
        guard !readWords.contains(text) else { return }
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%"), index + 1 < bytes.count else {
                index += 1
                continue
            }
            var start = index + 1
            if bytes[start] == UInt8(ascii: "%") {
                index += 2
                continue
            }
            if bytes[start] == UInt8(ascii: "{") {
                guard let close = bytes[start...].firstIndex(of: UInt8(ascii: "}")) else { return }
                start = close + 1
            }
            guard start < bytes.count, bytes[start] == UInt8(ascii: "[") else {
                index = start
                continue
            }
            let expression = start + 1
            var end = expression
            do {
                end = try self.expression(bytes, from: expression, embedded: true).end
            } catch let refusal as Refusal {
                throw Refusal(message: "failed to parse sample expression <\(Self.text(bytes[expression...]))> : \(refusal.message)")
            } catch {
                return
            }
            guard end < bytes.count, bytes[end] == UInt8(ascii: "]") else {
                let before = Self.text(bytes[expression..<end])
                if end < bytes.count, (0x20..<0x7F).contains(bytes[end]) {
                    throw Refusal(message: "expected ']' after '\(before)', but found '\(Self.text(bytes[end...end]))'")
                }
                throw Refusal(message: "missing ']' after '\(before)'")
            }
            index = end + 1
        }
        readWords.insert(text)
    }

    /// The refusal of a sample expression written as a word of its own (`set-var(txn.x) EXPR`).
    mutating func sample(_ word: String) throws(Refusal) {
        guard !readWords.contains(word) else { return }
        do {
            _ = try expression(Array(word.utf8), from: 0, embedded: false)
            readWords.insert(word)
        } catch let refusal as Refusal {
            throw refusal
        } catch {}
    }

    /// The refusal of an ACL expression: its first word (the fetch or ACL keyword and its
    /// converters), then the words after it up to the end of the `acl` line or the `}` of an
    /// anonymous ACL.
    mutating func acl(_ first: String, options: some Sequence<String>) throws(Refusal) {
        do {
            // Configurations repeat one expression thousands of times (`hdr(host) -i NAME`): each
            // is read once.
            let read: (matched: Bool, named: String)?
            if let known = readACLs[first] {
                read = known
            } else {
                do {
                    read = try readACL(Array(first.utf8), first)
                } catch is Unjudged {
                    read = nil
                }
                readACLs[first] = .some(read)
            }
            guard let read else { return }
            try readOptions(options, matched: read.matched, named: read.named)
        } catch let refusal as Refusal {
            throw refusal
        } catch {}
    }

    /// An ACL's first word: whether HAProxy knows how to match what it gives without `-m`, and
    /// what it names when it asks for one.
    private mutating func readACL(_ bytes: [UInt8], _ first: String) throws -> (matched: Bool, named: String) {
        let nameEnd = Self.identifierEnd(bytes, from: 0)
        let name = Self.text(bytes[..<nameEnd])
        let matched: Bool
        // What HAProxy names when it asks for a matching method.
        let named: String
        if let fetchName = table.aclKeywords[name], let fetch = table.fetches[fetchName] {
            let index = try arguments(bytes, from: nameEnd, of: fetch) { "ACL keyword '\(name)' : \($0.message)" }
            if Self.isBare(bytes, nameEnd, index), let bare = fetch.bareRefusal {
                throw Refusal(message: "in argument to '\(name)', \(bare)")
            }
            let read = try converters(bytes, from: index, after: name, type: fetch.output, embedded: false, aclKeyword: name)
            matched = read.count == 0 || Self.matchedTypes.contains(read.type)
            named = read.count == 0 ? name : fetchName
        } else {
            do {
                let read = try expression(bytes, from: 0, embedded: false)
                matched = Self.matchedTypes.contains(read.type)
                named = read.fetch
            } catch let refusal as Refusal {
                throw Refusal(message: "\(refusal.message) in ACL expression '\(first)'")
            }
        }
        return (matched, named)
    }

    /// The options before an ACL's patterns (-i -n -u -f -m -M --), after a first word that gives
    /// what `matched` says.
    private mutating func readOptions(_ options: some Sequence<String>, matched: Bool, named: String) throws(Refusal) {
        var matched = matched
        var words = options.makeIterator()
        var next = words.next()
        func askMethod() -> Refusal {
            Refusal(message: "matching method must be specified first (using '-m') when using a sample fetch of this type ('\(named)')")
        }
        while let option = next, option.hasPrefix("-") {
            next = words.next()
            switch option {
            case "-i", "-n", "-M": continue
            case "--": break
            case "-u":
                guard let id = next, Int(id) != nil else { throw Refusal(message: "the argument of -u must be an integer") }
                next = words.next()
                continue
            case "-f":
                guard matched else { throw askMethod() }
                if let refusal = patternFileRefusal(next ?? "") { throw Refusal(message: refusal) }
                next = words.next()
                continue
            case "-m":
                let method = next ?? ""
                guard Self.matchingMethods.contains(method) else {
                    throw Refusal(message: "unknown matching method '\(method)' when parsing ACL expression")
                }
                matched = true
                next = words.next()
                continue
            default:
                throw Refusal(message: "'\(option)' is not a valid ACL option. Please use '--' before any pattern beginning with a '-'")
            }
            break
        }
        guard matched else { throw askMethod() }
    }

    /// A fetch and its converters from `start`: where it ends, what it gives and the fetch's
    /// name. `embedded` (in `%[…]`): it ends at the first character that is not a comma after a
    /// keyword or its arguments; otherwise that character is refused.
    private mutating func expression(_ bytes: [UInt8], from start: Int, embedded: Bool) throws -> (end: Int, type: String, fetch: String) {
        let nameEnd = Self.identifierEnd(bytes, from: start)
        guard nameEnd > start else { throw Refusal(message: "missing fetch method") }
        let name = Self.text(bytes[start..<nameEnd])
        guard let fetch = table.fetches[name] else {
            guard refusesUnknown(), !(loadsLua && name.hasPrefix("lua.")) else { throw Unjudged() }
            throw Refusal(message: "unknown fetch method '\(name)'")
        }
        let index = try arguments(bytes, from: nameEnd, of: fetch) { "fetch method '\(name)' : \($0.message)" }
        if Self.isBare(bytes, nameEnd, index), let bare = fetch.bareRefusal {
            throw Refusal(message: "invalid args in fetch method '\(name)' : \(bare)")
        }
        let read = try converters(bytes, from: index, after: name, type: fetch.output, embedded: embedded, aclKeyword: nil)
        return (read.end, read.type, name)
    }

    /// The converters after a fetch's arguments, from `start`: where they end, the type they
    /// give and how many there are. `embedded`: they end at the first character that is not a
    /// comma after a converter; otherwise that character is refused. `aclKeyword`: the ACL
    /// keyword they follow, which HAProxy's words for a refusal name.
    private mutating func converters(
        _ bytes: [UInt8], from start: Int, after fetch: String, type: String, embedded: Bool, aclKeyword: String?
    ) throws -> (end: Int, type: String, count: Int) {
        let said = { (words: String) in aclKeyword.map { "ACL keyword '\($0)' : \(words)." } ?? words }
        var (index, type, count) = (start, type, 0)
        var converterName: String?
        while true {
            if index < bytes.count, bytes[index] != UInt8(ascii: ",") {
                if embedded { break }
                let fetchWords = aclKeyword == nil ? "missing comma after fetch keyword '\(fetch)'" : "missing comma after fetch keyword"
                throw Refusal(message: said(converterName.map { "missing comma after converter '\($0)'" } ?? fetchWords))
            }
            while index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1 }
            // The word's end: HAProxy would look at the next word, which is not this reader's.
            guard index < bytes.count else { break }
            let end = Self.identifierEnd(bytes, from: index)
            let converter = Self.text(bytes[index..<end])
            guard let known = table.converters[converter] else {
                guard refusesUnknown(), !(loadsLua && converter.hasPrefix("lua.")) else { throw Unjudged() }
                throw Refusal(message: said("unknown converter '\(converter)'"))
            }
            converterName = converter
            index = try arguments(bytes, from: end, of: known) { said("invalid arg \($0.position + 1) in converter '\(converter)' : \($0.message)") }
            if Self.isBare(bytes, end, index) {
                if let bare = bareRefusal(of: converter, known) { throw Refusal(message: said("invalid args in converter '\(converter)' : \(bare)")) }
            } else if converter.hasPrefix("map"), let refusal = patternFileRefusal(Self.text(Self.argument(bytes, from: end + 1).value[...])) {
                throw Refusal(message: said("invalid args in converter '\(converter)' : \(refusal)"))
            }
            type = known.output
            count += 1
        }
        return (index, type, count)
    }

    /// The arguments of a keyword from `start` (an opening parenthesis, or none), as
    /// make_arg_list() reads them: where they end. `words`: HAProxy's words for a failure.
    private func arguments(
        _ bytes: [UInt8], from start: Int, of keyword: HAProxySampleTable.Keyword, _ words: (ArgumentFailure) -> String
    ) throws(Refusal) -> Int {
        do {
            return try arguments(bytes, from: start, of: keyword)
        } catch {
            throw Refusal(message: words(error))
        }
    }

    private func arguments(_ bytes: [UInt8], from start: Int, of keyword: HAProxySampleTable.Keyword) throws(ArgumentFailure) -> Int {
        let empty = start >= bytes.count || bytes[start] != UInt8(ascii: "(")
        var index = empty ? start : start + 1
        var position = 0
        if !keyword.arguments.isEmpty, !(empty && keyword.required == 0) {
            while position < keyword.arguments.count {
                var value: [UInt8] = []
                if !empty { (value, index) = Self.argument(bytes, from: index) }
                let type = keyword.arguments[position]
                if value.isEmpty, Self.needsValue(type) {
                    // An empty optional argument ends the list.
                    if position >= keyword.required { break }
                    throw ArgumentFailure(message: "expected type '\(type)' at position \(position + 1), but got nothing", position: position)
                }
                if !Self.parses(value, as: type) {
                    throw ArgumentFailure(
                        message: "failed to parse '\(Self.text(value[...]))' as type '\(type)' at position \(position + 1)", position: position)
                }
                position += 1
                if empty || index >= bytes.count || bytes[index] == UInt8(ascii: ")") || position >= keyword.arguments.count { break }
                index += 1
            }
        }
        if position < keyword.required {
            throw ArgumentFailure(
                message: "missing arguments (got \(position)/\(keyword.required)), type '\(keyword.arguments[position])' expected", position: position)
        }
        if empty { return start }
        if index < bytes.count, bytes[index] == UInt8(ascii: ")") { return index + 1 }
        let rest = Self.text(bytes[index...])
        throw ArgumentFailure(message: rest.isEmpty ? "expected ')'" : "expected ')' before '\(rest)'", position: position > 1 ? position - 1 : position)
    }

    /// The argument from `start` up to the `,` or `)` after it (quotes and backslashes undone),
    /// and where it ends.
    private static func argument(_ bytes: [UInt8], from start: Int) -> (value: [UInt8], end: Int) {
        var value: [UInt8] = []
        var single = false
        var double = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") && !single {
                double.toggle()
            } else if byte == UInt8(ascii: "'") && !double {
                single.toggle()
            } else if byte == UInt8(ascii: "\\") && !single && index + 1 < bytes.count {
                index += 1
                value.append(bytes[index])
            } else if !single && !double && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: ")")) {
                break
            } else {
                value.append(byte)
            }
            index += 1
        }
        return (value, index)
    }

    /// HAProxy's refusal of a pattern file it cannot open, the first time it is named.
    private mutating func patternFileRefusal(_ path: String) -> String? {
        guard !path.isEmpty, namedPatternFiles.insert(path).inserted, patternFiles?.exists(path) == false else { return nil }
        return "failed to open pattern file <\(path)>"
    }

    /// What HAProxy says of a converter given no argument, if it refuses that. A map
    /// converter's first argument names its pattern file, which HAProxy opens once per name: an
    /// empty name is refused the first time only.
    private mutating func bareRefusal(of converter: String, _ known: HAProxySampleTable.Keyword) -> String? {
        guard let bare = known.bareRefusal else { return nil }
        if converter.hasPrefix("map") {
            if openedEmptyPatternFile { return nil }
            openedEmptyPatternFile = true
        }
        return bare
    }

    /// Whether the arguments from `start` to `end` are none: no parentheses, or `()`.
    private static func isBare(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Bool {
        end == start || (end == start + 2 && bytes[start] == UInt8(ascii: "("))
    }

    /// The types an empty argument is refused for (a string, or a name resolved later, may be empty).
    private static func needsValue(_ type: String) -> Bool {
        ["integer", "IPv4 address", "IPv4 mask", "IPv6 address", "IPv6 mask", "Protocol buffers field number"].contains(type)
    }

    /// Whether HAProxy reads `value` as an argument of `type`: an integer (read_int64(): an
    /// optional minus, then digits), an IPv4 address or mask (dotted quad, or a prefix length),
    /// an IPv6 mask (a prefix length); an IPv6 address only by its characters; the rest as given.
    private static func parses(_ value: [UInt8], as type: String) -> Bool {
        let text = String(decoding: value, as: UTF8.self)
        switch type {
        case "integer":
            let digits = value.first == UInt8(ascii: "-") ? value.dropFirst() : value[...]
            return digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        case "IPv4 address": return isDottedQuad(text)
        case "IPv4 mask": return isDottedQuad(text) || prefixLength(text, upTo: 32)
        case "IPv6 mask": return prefixLength(text, upTo: 128)
        case "IPv6 address": return text.contains(":") && text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        default: return true
        }
    }

    private static func isDottedQuad(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && (Int(part) ?? 256) <= 255 }
    }

    private static func prefixLength(_ text: String, upTo limit: Int) -> Bool {
        text.allSatisfy { $0.isASCII && $0.isNumber } && (Int(text) ?? limit + 1) <= limit
    }

    /// is_idchar(): a letter, a digit, or one of . _ - + :
    private static func identifierEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            let isLetterOrDigit =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            guard isLetterOrDigit || [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: ":")].contains(byte)
            else { break }
            index += 1
        }
        return index
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}
