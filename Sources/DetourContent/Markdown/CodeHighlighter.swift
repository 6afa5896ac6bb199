/// Highlights code blocks at build time, as spans with short classes the style sheet colours
/// (`c` comment, `k` directive or key, `t` section, `s` string, `v` variable, `n` number or
/// literal), so a help page needs no script. Knows the four servers' configuration languages,
/// shell sessions, YAML and JSON; any other language is shown as written.
public enum CodeHighlighter {
    public static func highlight(_ language: String, _ code: String) -> String? {
        let dialect: ConfigDialect
        switch language.lowercased() {
        case "nginx": dialect = .nginx
        case "caddyfile", "caddy": dialect = .caddy
        case "haproxy": dialect = .haproxy
        case "apache", "apacheconf": dialect = .apache
        case "sh", "console", "bash", "shell": dialect = .shell
        case "yaml", "yml": dialect = .yaml
        case "json": dialect = .json
        default: return nil
        }
        var scanner = HighlightScanner(code, dialect: dialect)
        return scanner.html()
    }
}

enum ConfigDialect {
    case nginx, caddy, haproxy, apache, shell, yaml, json
}

/// One pass over the code: words, quoted strings, comments and variables, each written as the
/// dialect colours it.
struct HighlightScanner {
    private let characters: [Character]
    private let dialect: ConfigDialect
    private var index = 0
    private var output = ""
    /// The next word starts a statement: a directive, a command, a key.
    private var atStatementStart = true
    /// Columns of leading white space on the current line (HAProxy sections, Caddy sites).
    private var lineIndent = 0
    private var atLineStart = true
    private var depth = 0

    init(_ code: String, dialect: ConfigDialect) {
        characters = Array(code)
        self.dialect = dialect
    }

    mutating func html() -> String {
        while index < characters.count {
            let character = characters[index]
            if character == "\n" {
                emit(String(character))
                index += 1
                atLineStart = true
                lineIndent = 0
                // nginx statements end at `;` and braces, not at line ends.
                if dialect != .nginx { atStatementStart = true }
                continue
            }
            if character == " " || character == "\t" {
                if atLineStart { lineIndent += 1 }
                emit(String(character))
                index += 1
                continue
            }
            atLineStart = false
            if character == "#", dialect != .json, isWordBoundaryBefore() {
                span("c", until: { $0 == "\n" })
                continue
            }
            if character == "\"" || (character == "'" && dialect != .json) {
                quoted(character)
                continue
            }
            if let variable = variableLength() {
                emit(span("v", String(characters[index..<index + variable])))
                index += variable
                atStatementStart = false
                continue
            }
            if dialect == .nginx || dialect == .caddy, character == "{" || character == "}" || character == ";" {
                if character == "{" { depth += 1 }
                if character == "}" { depth = max(0, depth - 1) }
                emit(String(character))
                index += 1
                if dialect == .nginx { atStatementStart = true }
                continue
            }
            if dialect == .shell, character == "|" || character == ";" || character == "&" {
                emit(MarkdownHTMLWriter.escape(String(character)))
                index += 1
                atStatementStart = true
                continue
            }
            word()
        }
        return output
    }

    private mutating func word() {
        let start = index
        while index < characters.count, !isWordEnd(characters[index]) { index += 1 }
        if index == start {
            // A character that ends words on its own (`{` outside nginx and Caddy, `:`, `,`).
            emit(MarkdownHTMLWriter.escape(String(characters[index])))
            index += 1
            return
        }
        var text = String(characters[start..<index])
        // A console's prompt: the command follows.
        if dialect == .shell, text == "$" || text == "#", atStatementStart {
            emit(text)
            return
        }
        if dialect == .yaml || dialect == .json, text.hasSuffix(":") {
            text.removeLast()
            emit(span("k", text) + ":")
            atStatementStart = false
            return
        }
        emit(classify(text).map { span($0, text) } ?? MarkdownHTMLWriter.escape(text))
        atStatementStart = false
    }

    private func classify(_ text: String) -> String? {
        if atStatementStart {
            switch dialect {
            case .apache: return text.hasPrefix("<") ? "t" : "k"
            case .haproxy: return lineIndent == 0 ? "t" : "k"
            case .caddy:
                // At the top a site's address, or a directive of a quoted site's inside.
                let isAddress = text.contains(".") || text.contains(":") || text.hasPrefix("localhost") || text.hasPrefix("(")
                return depth == 0 && isAddress ? "t" : (text.hasPrefix("@") ? "v" : "k")
            case .nginx, .shell: return text == "$" ? nil : "k"
            case .yaml, .json: break
            }
        }
        if dialect == .apache, text.hasPrefix("<") || text.hasPrefix("</") || text == ">" { return "t" }
        if dialect == .caddy, text.hasPrefix("@") { return "v" }
        if let first = text.first, first.isNumber || ((first == "-" || first == "+") && text.dropFirst().first?.isNumber == true) { return "n" }
        if ["on", "off", "true", "false", "null", "yes", "no"].contains(text.lowercased()), dialect != .shell { return "n" }
        return nil
    }

    private func isWordEnd(_ character: Character) -> Bool {
        if character == " " || character == "\t" || character == "\n" || character == "\"" { return true }
        switch dialect {
        case .nginx: return character == ";" || character == "{" || character == "}" || character == "'"
        case .caddy: return character == "{" || character == "}"
        case .shell: return character == "|" || character == ";" || character == "&" || character == "'" || character == "$"
        case .json: return character == "," || character == "{" || character == "}" || character == "[" || character == "]" || character == ":"
        case .yaml: return character == "," || character == "[" || character == "]"
        case .apache, .haproxy: return false
        }
    }

    /// `$name` and `${name}` (nginx, shell, Apache's `${ENV}`), `%{VAR}` (Apache),
    /// `%[fetch]` and `%{+Q}` (HAProxy), `{placeholder}` (Caddy).
    private func variableLength() -> Int? {
        let character = characters[index]
        let next = index + 1 < characters.count ? characters[index + 1] : " "
        switch (dialect, character) {
        case (.nginx, "$"), (.shell, "$"), (.apache, "$"):
            if next == "{" { return closing("}", from: index + 2).map { $0 - index + 1 } }
            var end = index + 1
            while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "_" { end += 1 }
            return end > index + 1 ? end - index : nil
        case (.apache, "%"), (.haproxy, "%"):
            guard next == "{" || next == "[" else { return nil }
            return closing(next == "{" ? "}" : "]", from: index + 2).map { $0 - index + 1 }
        case (.caddy, "{"):
            guard next.isLetter || next == "$" else { return nil }
            guard let end = closing("}", from: index + 1), !characters[index + 1..<end].contains(" ") else { return nil }
            return end - index + 1
        default:
            return nil
        }
    }

    private func closing(_ character: Character, from start: Int) -> Int? {
        var end = start
        while end < characters.count, characters[end] != "\n" {
            if characters[end] == character { return end }
            end += 1
        }
        return nil
    }

    private func isWordBoundaryBefore() -> Bool {
        guard index > 0 else { return true }
        let before = characters[index - 1]
        return before == " " || before == "\t" || before == "\n" || before == ";" || before == "{" || before == "}"
    }

    private mutating func quoted(_ quote: Character) {
        let start = index
        index += 1
        while index < characters.count, characters[index] != quote, characters[index] != "\n" {
            if characters[index] == "\\" { index += 1 }
            index += 1
        }
        if index < characters.count, characters[index] == quote { index += 1 }
        let text = String(characters[start..<min(index, characters.count)])
        var isKey = false
        if dialect == .json || dialect == .yaml {
            var after = index
            while after < characters.count, characters[after] == " " { after += 1 }
            isKey = after < characters.count && characters[after] == ":"
        }
        emit(span(isKey ? "k" : "s", text))
        atStatementStart = false
    }

    private mutating func span(_ kind: String, until stop: (Character) -> Bool) {
        let start = index
        while index < characters.count, !stop(characters[index]) { index += 1 }
        emit(span(kind, String(characters[start..<index])))
    }

    private func span(_ kind: String, _ text: String) -> String {
        "<span class=\"\(kind)\">" + MarkdownHTMLWriter.escape(text) + "</span>"
    }

    private mutating func emit(_ html: String) { output += html }
}
