import DetourDiagnostics

/// What `caddy adapt` refuses in a site block once the Caddyfile is read: a directive it does
/// not know (in the site or in a `route`/`handle` inside it), and status codes after
/// `handle_errors`, which only Caddy 2.8 takes. Caddy stops at the first; every one is reported.
enum CaddyDirectiveCheck {
    static func check(_ config: CaddyConfig) -> [Diagnostic] {
        let sites = config.blocks.enumerated().filter { !($0.offset == 0 && $0.element.isGlobalOptions) }.map(\.element)
        return sites.concurrentMap { block -> [Diagnostic] in
            var found: [Diagnostic] = []
            if let stray = block.keys.first(where: { $0.text == "}" }) {
                found.append(error("Unexpected '}' because no matching opening brace; Caddy reads it as a site address", at: stray, config))
            }
            for segment in block.segments { check(segment, config, into: &found) }
            return found
        }.flatMap { $0 }
    }

    /// `closing`: the `}` of the route block the segment is in, where Caddy names an unknown
    /// directive inside one.
    /// Routes nested deeper than this are not looked into (a generated file can nest them
    /// without end).
    static let maximumDepth = 64

    private static func check(_ segment: [CaddyToken], _ config: CaddyConfig, closing: CaddyToken? = nil, depth: Int = 0, into found: inout [Diagnostic]) {
        guard let name = segment.first else { return }
        if name.text.hasPrefix("@") { return }
        guard CaddyDirectives.known.contains(name.text) else {
            if let closing {
                found.append(error("unrecognized directive: \(name.text) - are you sure your Caddyfile structure (nesting and braces) is correct?", at: closing, config,
                                   notes: [.init("the directive is here; Caddy names the end of its block", at: location(of: name, config))]))
            } else {
                found.append(error("unrecognized directive: \(name.text)", at: name, config))
            }
            return
        }
        if name.text == "handle_errors", segment.count > 1, segment[1].text != "{" {
            found.append(error("Wrong argument count or unexpected line ending after '\(segment[1].text)'", at: segment[1], config,
                               notes: [.init("status codes after handle_errors need Caddy 2.8; in 2.6 match them inside it: @5xx expression `{err.status_code} >= 500`")]))
        }
        guard CaddyDirectives.routes.contains(name.text) else { return }
        guard depth < maximumDepth else {
            found.append(Diagnostic(.note, "caddy.directive", "routes nest more than \(maximumDepth) deep here; detour does not check deeper", at: location(of: name, config)))
            return
        }
        let inside = block(inside: segment)
        for line in inside.lines { check(line, config, closing: inside.closing, depth: depth + 1, into: &found) }
    }

    /// The lines of the block a segment opens (nested blocks kept with their line) and its `}`.
    static func block(inside segment: [CaddyToken]) -> (lines: [[CaddyToken]], closing: CaddyToken?) {
        guard let open = segment.firstIndex(where: { $0.text == "{" && !$0.isQuoted }) else { return ([], nil) }
        var lines: [[CaddyToken]] = []
        var depth = 0
        var previous: CaddyToken?
        for token in segment[(open + 1)...] {
            if token.text == "}", !token.isQuoted, depth == 0 { return (lines, token) }
            let startsLine = previous?.endsBeforeLine(of: token) ?? true
            if depth == 0, startsLine || lines.isEmpty { lines.append([]) }
            lines[lines.count - 1].append(token)
            if !token.isQuoted, token.text == "{" { depth += 1 }
            if !token.isQuoted, token.text == "}" { depth -= 1 }
            previous = token
        }
        return (lines, nil)
    }

    private static func location(of token: CaddyToken, _ config: CaddyConfig) -> SourceLocation {
        SourceLocation(path: config.files[token.file], line: token.line, column: token.column)
    }

    private static func error(_ message: String, at token: CaddyToken, _ config: CaddyConfig, notes: [Diagnostic.Note] = []) -> Diagnostic {
        .error("caddy.directive", message, at: location(of: token, config), notes: notes)
    }
}
