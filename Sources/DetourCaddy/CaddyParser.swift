import DetourDiagnostics
import DetourProxyCore
import DetourSupport
import Foundation

/// Caddy's Caddyfile parser: site blocks and their addresses, snippets `(name) { … }`,
/// `import` of snippets and of files or a one-wildcard glob with `{args.N}` (and from 2.7
/// `{args[N]}` and `{args[M:N]}`), directives with
/// nested blocks. Like Caddy it stops at the first error and says it in Caddy's words, at the
/// line Caddy names (and the column).
struct CaddyParser {
    /// Reads an imported file: its tokens and index, or a reason it cannot be read.
    typealias Reader = (_ path: String) -> Result<ReadFile, FileBytes.Failure>

    /// A file's words, its index, and the error that cut its lexing short.
    struct ReadFile {
        var tokens: [CaddyToken]
        var file: Int
        var failure: Diagnostic?
    }

    // The words as a gap buffer: those read, the current one last, and those still to read,
    // the next one last. An import puts its words at the gap, so a Caddyfile that imports a
    // snippet into every one of thousands of sites is read in linear time.
    private var read: [CaddyToken] = []
    private var unread: [CaddyToken]
    /// Past the last word: where an import of nothing at the very end leaves the reader.
    private var pastEnd = false
    /// Words so far, imports included, for the cap.
    private var total: Int
    private var nesting = 0
    private var snippets: [String: [CaddyToken]] = [:]
    private var snippetNames: [String] = []
    private var imports: [String: Set<String>] = [:]
    private let paths: (Int) -> (display: String, absolute: String)
    private let reader: Reader
    private let version: CaddyVersionSource
    private var onBlock: ((CaddySiteBlock, Int) -> Void)?
    /// Caddy has no bound here; detour stops a Caddyfile that imports past this many tokens.
    static let maximumTokens = 10_000_000

    private(set) var blocks: [CaddySiteBlock] = []
    private(set) var error: Diagnostic?

    /// `onBlock`: each block with its number, as soon as it is closed.
    static func parse(
        _ tokens: [CaddyToken], version: CaddyVersionSource, paths: @escaping (Int) -> (display: String, absolute: String), read: @escaping Reader,
        onBlock: ((CaddySiteBlock, Int) -> Void)? = nil
    ) -> CaddyParser {
        var parser = CaddyParser(tokens: tokens, version: version, paths: paths, read: read)
        parser.onBlock = onBlock
        do {
            try parser.parseAll()
        } catch let failure as Failure {
            parser.error = failure.diagnostic
        } catch {}
        return parser
    }

    private init(tokens: [CaddyToken], version: CaddyVersionSource, paths: @escaping (Int) -> (display: String, absolute: String), read: @escaping Reader) {
        self.version = version
        unread = tokens.reversed()
        total = tokens.count
        self.paths = paths
        reader = read
    }

    private struct Failure: Error { var diagnostic: Diagnostic }

    // MARK: Cursor

    /// The current token; before the first (or with none) an empty one at the top.
    private var token: CaddyToken { read.last ?? CaddyToken(text: "", file: 0, line: 1, column: 1) }
    private var value: String { pastEnd ? "" : read.last?.text ?? "" }

    private mutating func next() -> Bool {
        guard let next = unread.popLast() else { return false }
        pastEnd = false
        read.append(next)
        return true
    }

    /// Steps back one word, as Caddy's parser does when it read too far.
    private mutating func back() {
        if pastEnd {
            pastEnd = false
        } else if let last = read.popLast() {
            unread.append(last)
        }
    }

    /// Whether the current token starts a line: another file, or a line past the previous
    /// token's last one.
    private var isNewLine: Bool {
        if pastEnd { return false }
        guard read.count >= 2 else { return true }
        let previous = read[read.count - 2]
        let current = read[read.count - 1]
        return previous.endsBeforeLine(of: current)
    }

    private var isNextOnNewLine: Bool {
        guard !pastEnd, let current = read.last else { return read.isEmpty ? false : true }
        guard let next = unread.last else { return true }
        return current.endsBeforeLine(of: next)
    }

    private func failure(_ message: String) -> Failure {
        let at = token
        return Failure(diagnostic: .error(CaddyRules.syntax.id, message, at: SourceLocation(path: paths(at.file).display, line: at.line, column: at.column)))
    }

    private func parsingError(_ message: String) -> Failure { failure(message) }
    private func syntaxError(expecting: String) -> Failure { failure("Syntax error: Unexpected token '\(value)', expecting '\(expecting)'") }
    private func endOfFile() -> Failure { failure("Unexpected EOF") }

    // MARK: Blocks

    private mutating func parseAll() throws {
        while next() {
            var block = CaddySiteBlock()
            block.start = token
            let reachedEnd = try addresses(into: &block)
            if !reachedEnd {
                if block.keys.count == 1, let name = Self.snippetName(block.keys[0].text) {
                    guard snippets[name] == nil else { throw parsingError("redeclaration of previously declared snippet \(name)") }
                    let number = Int32(snippetNames.count)
                    snippetNames.append(name)
                    snippets[name] = try snippetTokens().map {
                        var copy = $0
                        copy.snippet = number
                        return copy
                    }
                    continue
                }
                try blockContents(into: &block)
            }
            let isBlock = !block.keys.isEmpty || !block.segments.isEmpty
            if isBlock { blocks.append(block) }
            if nesting > 0 { throw endOfFile() }
            if isBlock { onBlock?(block, blocks.count - 1) }
            // A closed block's words are in its segments: the cursor needs only the last two.
            if read.count > 2 { read.removeFirst(read.count - 2) }
        }
    }

    /// Reads the addresses; true when the file ended on them.
    private mutating func addresses(into block: inout CaddySiteBlock) throws -> Bool {
        var expectingAnother = false
        while true {
            var text = value
            if text == "import", isNewLine {
                try doImport()
                continue
            }
            if text == "{" {
                if expectingAnother { throw parsingError("Expected another address but had '\(text)' - check for extra comma") }
                block.hasBraces = true
                return false
            }
            if text.hasSuffix("{") {
                throw parsingError("Site addresses cannot end with a curly brace: '\(text)' - put a space between the token and the brace")
            }
            if !text.isEmpty {
                if text.hasSuffix(",") {
                    text.removeLast()
                    expectingAnother = true
                } else {
                    expectingAnother = false
                }
                if text.utf8.contains(UInt8(ascii: ",")) {
                    throw parsingError("Site addresses cannot contain a comma ',': '\(value)' - put a space after the comma to separate site addresses")
                }
                var key = token
                key.text = text
                block.keys.append(key)
            }
            let hasNext = next()
            if expectingAnother, !hasNext { throw endOfFile() }
            if !hasNext { return true }
            if !expectingAnother, isNewLine { return false }
        }
    }

    private mutating func blockContents(into block: inout CaddySiteBlock) throws {
        let braced = value == "{"
        if !braced { back() }
        try directives(into: &block)
        if braced, value != "}" { throw syntaxError(expecting: "}") }
    }

    private mutating func directives(into block: inout CaddySiteBlock) throws {
        while next() {
            if value == "}" { break }
            if value == "import" {
                try doImport()
                back()
                continue
            }
            try directive(into: &block)
        }
    }

    private mutating func directive(into block: inout CaddySiteBlock) throws {
        var segment = [token]
        while next() {
            if value == "{" {
                nesting += 1
                if !isNextOnNewLine, !token.isQuoted { throw parsingError("Unexpected next token after '{' on same line") }
            } else if value == "{}" {
                if isNextOnNewLine, !token.isQuoted { throw parsingError("Unexpected '{}' at end of line") }
            } else if isNewLine, nesting == 0 {
                back()
                break
            } else if value == "}", nesting > 0 {
                nesting -= 1
            } else if value == "}", nesting == 0 {
                throw parsingError("Unexpected '}' because no matching opening brace")
            } else if value == "import", isNewLine {
                try doImport()
                back()
                continue
            }
            segment.append(token)
        }
        block.segments.append(segment)
        if nesting > 0 { throw endOfFile() }
    }

    private static func snippetName(_ key: String) -> String? {
        guard key.hasPrefix("("), key.hasSuffix(")"), key.count >= 2 else { return nil }
        return String(key.dropFirst().dropLast())
    }

    private mutating func snippetTokens() throws -> [CaddyToken] {
        guard value == "{" else { throw syntaxError(expecting: "{") }
        var depth = 1
        var found: [CaddyToken] = []
        while next() {
            if value == "}" {
                depth -= 1
                if depth == 0 { break }
            }
            if value == "{" { depth += 1 }
            found.append(token)
        }
        if depth != 0 { throw syntaxError(expecting: "}") }
        return found
    }

    // MARK: Imports

    /// Replaces `import PATTERN ARGS…` with the snippet's or the files' tokens, `{args.N}`
    /// filled in; the first of them becomes the current word.
    private mutating func doImport() throws {
        let importToken = token
        guard !unread.isEmpty, !isNextOnNewLine, next() else {
            throw parsingError("Wrong argument count or unexpected line ending after '\(importToken.text)'")
        }
        let pattern = value
        if pattern.isEmpty { throw parsingError("Import requires a non-empty filepath") }
        var arguments: [String] = []
        while !unread.isEmpty, !isNextOnNewLine, next() {
            arguments.append(value)
        }
        var imported: [CaddyToken]
        var nodes: [String]
        if let snippet = snippets[pattern] {
            imported = snippet
            nodes = ["\(paths(snippet.first?.file ?? importToken.file).absolute):\(pattern)"]
        } else {
            let base = URL(fileURLWithPath: paths(token.file).absolute).deletingLastPathComponent()
            // Cleaned as Go's filepath.Join cleans it: the import graph compares these paths.
            let glob = URL(fileURLWithPath: pattern.hasPrefix("/") ? pattern : base.appendingPathComponent(pattern).path).standardizedFileURL.path
            if glob.filter({ $0 == "*" }).count > 1 || glob.filter({ $0 == "?" }).count > 1 || (glob.contains("[") && glob.contains("]")) {
                throw parsingError("Glob pattern may only contain one wildcard (*), but has others: \(glob)")
            }
            let matches = FileGlob.matches(glob).sorted()
            if matches.isEmpty, !glob.contains(where: { "*?[]".contains($0) }) {
                throw parsingError("File to import not found: \(pattern)")
            }
            imported = []
            for match in matches {
                switch reader(match) {
                case .success(let file):
                    if let failure = file.failure { throw Failure(diagnostic: failure) }
                    imported += file.tokens
                case .failure(let failure):
                    throw parsingError(
                        failure.code == EISDIR ? "Could not import \(match): is a directory" : "Could not import \(match): \(CaddyConfig.reason(failure))")
                }
            }
            nodes = matches
        }
        var node = paths(importToken.file).absolute
        if let snippet = importToken.snippet { node += ":\(snippetNames[Int(snippet)])" }
        for target in nodes {
            if target == node || reaches(from: target, to: node) {
                throw parsingError("a cycle of imports exists between \(node) and \(target)")
            }
            imports[node, default: []].insert(target)
        }
        total += imported.count
        if total > Self.maximumTokens {
            throw parsingError("imports here expand past \(Self.maximumTokens) words; detour does not read further")
        }
        // {args.0}, {args[0]}, {args[1:]}: known placeholders only; others stay for Caddy at runtime.
        if imported.contains(where: { Self.argumentsPlaceholder(in: $0.text) != nil }) {
            imported = imported.flatMap { token in fillArguments(token, arguments) }
        }
        // The import and its words give way to what it brings, each marked with where it was
        // imported (in the one copy the splice makes); the first of those is current.
        read.removeLast(2 + arguments.count)
        unread.append(
            contentsOf: imported.reversed().lazy.map { token in
                var marked = token
                marked.imported(by: importToken)
                return marked
            })
        if !next() { pastEnd = true }
    }

    /// The token with the import's arguments put in; from Caddy 2.7 a `{args[M:N]}` token on
    /// its own stands for those arguments, one token each.
    private func fillArguments(_ token: CaddyToken, _ arguments: [String]) -> [CaddyToken] {
        guard let after = Self.argumentsPlaceholder(in: token.text) else { return [token] }
        let brackets = after == UInt8(ascii: "[") && version.version.hasBracketArguments
        if brackets, let range = Self.variadic(token.text, count: arguments.count) {
            return arguments[range].map {
                var copy = token
                copy.text = $0
                return copy
            }
        }
        var copy = token
        for (index, argument) in arguments.enumerated() {
            copy.text = copy.text.replacingOccurrences(of: "{args.\(index)}", with: argument)
            if brackets { copy.text = copy.text.replacingOccurrences(of: "{args[\(index)]}", with: argument) }
        }
        return [copy]
    }

    /// The byte after the first `{args` in `text`, or nil when there is none: most words have
    /// none, and this runs on every imported word.
    private static func argumentsPlaceholder(in text: String) -> UInt8? {
        var matched = 0
        for byte in text.utf8 {
            if matched == 5 { return byte }
            if byte == Self.placeholderStart[matched] {
                matched += 1
            } else {
                matched = byte == UInt8(ascii: "{") ? 1 : 0
            }
        }
        return nil
    }

    private static let placeholderStart = Array("{args".utf8)

    /// `{args[M:N]}`, `{args[:]}`, `{args[1:]}`: the arguments it stands for, or nil when the
    /// word is not one (or its bounds are out of range, which Caddy only warns about).
    private static func variadic(_ text: String, count: Int) -> Range<Int>? {
        guard text.hasPrefix("{args["), text.hasSuffix("]}") else { return nil }
        let inner = text.dropFirst(6).dropLast(2)
        guard let colon = inner.firstIndex(of: ":") else { return nil }
        let start = inner[..<colon]
        let end = inner[inner.index(after: colon)...]
        guard !start.contains("}"), !end.contains("{") else { return nil }
        guard let low = start.isEmpty ? 0 : Int(start), let high = end.isEmpty ? count : Int(end), low >= 0, low <= high, high <= count else { return nil }
        return low..<high
    }

    private func reaches(from start: String, to goal: String) -> Bool {
        var seen: Set<String> = [start]
        var queue = [start]
        while let node = queue.popLast() {
            for next in imports[node] ?? [] where seen.insert(next).inserted {
                if next == goal { return true }
                queue.append(next)
            }
        }
        return false
    }

}
