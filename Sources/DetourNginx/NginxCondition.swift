import Foundation

/// The condition of an `if` block as nginx reads it: `($var)`, `($var op operand)` or a file
/// test (`-f $request_filename`), the parentheses taken off.
struct NginxCondition {
    let words: [String]

    /// nil when the arguments are not wrapped in parentheses.
    init?(_ directive: NginxDirective) {
        var words = directive.values
        guard let first = words.first, first.hasPrefix("("), let last = words.last, last.hasSuffix(")") else { return nil }
        if first == "(" { words.removeFirst() } else { words[0] = String(first.dropFirst()) }
        guard !words.isEmpty else { return nil }
        if words[words.count - 1] == ")" { words.removeLast() } else { words[words.count - 1] = String(words[words.count - 1].dropLast()) }
        self.words = words
    }

    static let operators: Set<String> = ["=", "!=", "~", "~*", "!~", "!~*"]
    static let fileTests: Set<String> = ["-f", "!-f", "-d", "!-d", "-e", "!-e", "-x", "!-x"]

    /// What the condition does when nginx runs the server's rewrite rules again for an internal
    /// redirect to `uri` (an error page).
    enum Outcome: Equatable {
        /// It holds for the page's URI.
        case holds
        case fails
        /// It reads only what the redirect keeps ($request_uri, headers, the client's
        /// address): it holds again exactly when it held for the visitor's request.
        case asBefore
        /// It reads something unknown here (a `set` or `map` variable, the file system).
        case unknown
    }

    func outcome(onRedirectTo uri: String) -> Outcome {
        guard let subject = words.first, subject.hasPrefix("$") else { return .unknown }
        let name = String(subject.dropFirst())
        let value = Self.valueOnRedirect(name, uri: uri)
        if words.count == 1 {
            switch value {
            case .known(let text): return text.isEmpty || text == "0" ? .fails : .holds
            case .kept: return .asBefore
            case .unknown: return .unknown
            }
        }
        guard words.count == 3, Self.operators.contains(words[1]) else { return .unknown }
        let operand = words[2]
        let operandNames = NginxVariables.names(in: operand)
        switch value {
        case .unknown: return .unknown
        case .kept:
            return operandNames.allSatisfy({ Self.valueOnRedirect($0, uri: uri) == .kept }) ? .asBefore : .unknown
        case .known(let text):
            guard operandNames.isEmpty, let holds = Self.compare(text, words[1], operand) else { return .unknown }
            return holds ? .holds : .fails
        }
    }

    /// Whether the condition holds for a request by `method`, when it reads the method alone
    /// (`if ($request_method = POST)`, `!~ ^(GET|HEAD)$`); nil when it reads anything else.
    func holds(forMethod method: String) -> Bool? {
        guard words.count == 3, words[0] == "$request_method", Self.operators.contains(words[1]), NginxVariables.names(in: words[2]).isEmpty else {
            return nil
        }
        return Self.compare(method, words[1], words[2])
    }

    /// `text OP operand` as nginx's `if` compares them; nil for an expression it cannot compile.
    private static func compare(_ text: String, _ op: String, _ operand: String) -> Bool? {
        let matched: Bool
        if op == "=" || op == "!=" {
            matched = text == operand
        } else {
            guard let regex = NginxRegex.compile(operand, caseless: op.hasSuffix("*")) else { return nil }
            matched = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        return matched != op.hasPrefix("!")
    }

    private enum Value: Equatable {
        case known(String)
        case kept
        case unknown
    }

    /// Variables the redirect leaves as the visitor's request set them.
    private static let kept: Set<String> = [
        "request_uri", "request", "remote_addr", "binary_remote_addr", "remote_port", "remote_user", "host", "hostname",
        "server_name", "server_addr", "server_port", "scheme", "https", "server_protocol", "content_type", "content_length",
    ]
    private static let keptFamilies = ["http_", "cookie_", "ssl_"]

    /// What `$name` holds once nginx redirected to the error page `uri`: the page's URI, no
    /// arguments, and GET (nginx turns the method into GET for a URI target).
    private static func valueOnRedirect(_ name: String, uri: String) -> Value {
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        let query = uri.contains("?") ? String(uri.split(separator: "?", maxSplits: 1).last ?? "") : ""
        switch name {
        case "uri", "document_uri": return .known(path)
        case "request_method": return .known("GET")
        case "args", "query_string": return .known(query)
        case "is_args": return .known(query.isEmpty ? "" : "?")
        default:
            if kept.contains(name) || keptFamilies.contains(where: name.hasPrefix) { return .kept }
            return .unknown
        }
    }
}
