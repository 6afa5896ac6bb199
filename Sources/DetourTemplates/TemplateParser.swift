/// Compiles Mustache text into `TemplateNode`s with swift-mustache's reading of the spec:
/// a section, inverted section, comment, partial, delimiter or pragma tag alone on its line
/// takes the line with it, and a standalone partial indents every line it renders.
///
/// Inheritance (`{{<parent}}`, `{{$block}}`) and dynamic partials (`{{>*name}}`) are not
/// compiled: `unsupported` says so, and such a theme renders through swift-mustache.
/// Syntax errors are swift-mustache's to report (`TemplateSet` parses with it first); here
/// they only make the template uncompilable.
struct TemplateParser {
    enum Failure: Error { case unsupported, invalid }

    private let text: [Character]
    private var position = 0

    init(_ source: String) { text = Array(source) }

    static func compile(_ source: String) throws(Failure) -> [TemplateNode] {
        var parser = TemplateParser(source)
        return try parser.nodes(in: Scope())
    }

    /// What the tags being read are inside of.
    private struct Scope {
        var section: (name: String, transforms: [String])?
        var open = "{{"
        var close = "}}"
        /// At the start of a line (or after a standalone tag that ended one).
        var atLineStart = true
    }

    private var atEnd: Bool { position == text.count }
    private var current: Character { atEnd ? "\0" : text[position] }

    private mutating func nodes(in outer: Scope) throws(Failure) -> [TemplateNode] {
        var nodes: [TemplateNode] = []
        var scope = outer
        var indent = ""
        while !atEnd {
            if scope.atLineStart { indent = read(while: { $0 == " " || $0 == "\t" }) }
            let plain = readText(scope)
            // After an opening delimiter too: swift-mustache takes `{{` before a line break as text.
            if current.isNewline {
                nodes.append(.text(indent + plain + String(current)))
                position += 1
                scope.atLineStart = true
                continue
            }
            if !plain.isEmpty {
                nodes.append(.text(indent + plain))
                indent = ""
                scope.atLineStart = false
            }
            if atEnd { break }
            var standalone = false
            /// Whitespace before an inline tag is text of its own.
            func flushIndent() {
                if !indent.isEmpty { nodes.append(.text(indent)) }
                indent = ""
            }
            switch current {
            case "#", "^":
                let inverted = current == "^"
                position += 1
                let (name, transforms) = try readName(scope)
                standalone = endsStandalone(scope)
                if !standalone { flushIndent() }
                var inner = scope
                inner.section = (name, transforms)
                if !standalone { inner.atLineStart = false }
                let body = try self.nodes(in: inner)
                nodes.append(.section(TemplateName(name, transforms: transforms), body, inverted: inverted))
            case "/":
                position += 1
                let (name, transforms) = try readName(scope)
                guard let section = scope.section, section.name == name, section.transforms == transforms else { throw .invalid }
                if !endsStandalone(scope) { flushIndent() }
                return nodes
            case "!":
                position += 1
                guard skip(past: scope.close) else { throw .invalid }
                standalone = endsStandalone(scope)
            case "{", "&":
                let triple = current == "{"
                flushIndent()
                position += 1
                let (name, transforms) = try readName(scope)
                if triple {
                    guard current == "}" else { throw .invalid }
                    position += 1
                }
                nodes.append(.variable(TemplateName(name, transforms: transforms), escaped: false))
            case ">":
                position += 1
                _ = read(while: \.isWhitespace)
                if current == "*" { throw .unsupported }
                let name = try readPartialName(scope)
                if !indent.isEmpty { nodes.append(.text(indent)) }
                standalone = endsStandalone(scope)
                nodes.append(.partial(name, indentation: standalone ? indent : nil))
                indent = ""
            case "<", "$":
                throw .unsupported
            case "=":
                position += 1
                try readDelimiters(&scope)
                standalone = endsStandalone(scope)
            case "%":
                position += 1
                nodes.append(.contentType(try readPragma(scope)))
                standalone = endsStandalone(scope)
            default:
                flushIndent()
                let (name, transforms) = try readName(scope)
                nodes.append(.variable(TemplateName(name, transforms: transforms), escaped: true))
            }
            scope.atLineStart = standalone
        }
        guard scope.section == nil else { throw .invalid }
        return nodes
    }

    /// Text up to the next opening delimiter (consumed) or line break (not consumed).
    private mutating func readText(_ scope: Scope) -> String {
        var plain = ""
        while !atEnd {
            let character = current
            if character == "\n" || character == "\r\n" { break }
            if starts(with: scope.open) {
                position += scope.open.count
                break
            }
            plain.append(character)
            position += 1
        }
        return plain
    }

    private func starts(with delimiter: String) -> Bool {
        var index = position
        for character in delimiter {
            guard index < text.count, text[index] == character else { return false }
            index += 1
        }
        return true
    }

    @discardableResult
    private mutating func read(while accepts: (Character) -> Bool) -> String {
        let start = position
        while !atEnd, accepts(current) { position += 1 }
        return String(text[start..<position])
    }

    private mutating func skip(past delimiter: String) -> Bool {
        while !atEnd {
            if starts(with: delimiter) {
                position += delimiter.count
                return true
            }
            position += 1
        }
        return false
    }

    private mutating func expect(_ delimiter: String) throws(Failure) {
        guard starts(with: delimiter) else { throw .invalid }
        position += delimiter.count
    }

    /// A tag alone on its line: the rest of the line (blanks and the break) goes with it.
    private mutating func endsStandalone(_ scope: Scope) -> Bool {
        guard scope.atLineStart else { return false }
        if atEnd { return true }
        var index = position
        while index < text.count, text[index] == " " || text[index] == "\t" { index += 1 }
        guard index < text.count, text[index].isNewline else { return false }
        position = index + 1
        return true
    }

    private static let nameCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*")
    private static let partialNameCharacters = nameCharacters.union("()/")

    /// A name with its transforms: `first(reversed(list))` is `list` with `["first", "reversed"]`.
    private mutating func readName(_ scope: Scope) throws(Failure) -> (String, [String]) {
        read(while: \.isWhitespace)
        let written = read(while: { Self.nameCharacters.contains($0) || $0 == "(" || $0 == ")" })
        read(while: \.isWhitespace)
        try expect(scope.close)
        guard written.contains("(") else { return (written, []) }
        var parts = written.split(separator: "(", omittingEmptySubsequences: false).map(String.init)
        guard var last = parts.popLast() else { throw .invalid }
        let closing = last.reversed().prefix(while: { $0 == ")" }).count
        last.removeLast(closing)
        guard closing == parts.count, !last.contains(")"), parts.allSatisfy({ !$0.contains(")") }) else { throw .invalid }
        return (last, parts)
    }

    private mutating func readPartialName(_ scope: Scope) throws(Failure) -> String {
        let name = read(while: { Self.partialNameCharacters.contains($0) })
        read(while: \.isWhitespace)
        try expect(scope.close)
        return name
    }

    private mutating func readDelimiters(_ scope: inout Scope) throws(Failure) {
        read(while: \.isWhitespace)
        let open = read(while: { !$0.isWhitespace })
        read(while: \.isWhitespace)
        let close = read(while: { $0 != "=" && !$0.isWhitespace })
        read(while: \.isWhitespace)
        guard current == "=" else { throw .invalid }
        position += 1
        try expect(scope.close)
        guard !open.isEmpty, !close.isEmpty else { throw .invalid }
        scope.open = open
        scope.close = close
    }

    private mutating func readPragma(_ scope: Scope) throws(Failure) -> TemplateContentType {
        let word: (Character) -> Bool = { Self.nameCharacters.contains($0) }
        read(while: \.isWhitespace)
        let variable = read(while: word)
        read(while: \.isWhitespace)
        guard current == ":" else { throw .invalid }
        position += 1
        read(while: \.isWhitespace)
        let value = read(while: word)
        read(while: \.isWhitespace)
        try expect(scope.close)
        guard variable == "CONTENT_TYPE", let type = TemplateContentType(rawValue: value) else { throw .invalid }
        return type
    }
}
