import DetourDiagnostics
import DetourSupport

/// What `caddy adapt` refuses in a site block once the Caddyfile is read: a directive the
/// version read for does not know (in the site or in a `route`/`handle` inside it), a number of
/// arguments 2.6 does not take (CaddyArgumentTable), an upstream URL it cannot dial
/// (CaddyUpstreamAddress), `tls` values it refuses (CaddyTLSValues), a word a directive's block
/// does not take (CaddySubdirectiveTable), and status codes after
/// `handle_errors` before Caddy 2.8 (bad ones after). Caddy stops at the first;
/// every one is reported.
enum CaddyDirectiveCheck {
    static func check(_ config: CaddyConfig) -> [Diagnostic] {
        config.sites.concurrentMap { check($0, config) }.flatMap { $0 }
    }

    /// One site block's findings.
    static func check(_ block: CaddySiteBlock, _ config: CaddyConfig) -> [Diagnostic] {
        var found: [Diagnostic] = []
        if block.hasStrayBrace, let stray = block.keys.first(where: { $0.text == "}" }) {
            found.append(error("Unexpected '}' because no matching opening brace; Caddy reads it as a site address", at: stray, config))
        }
        for segment in block.segments { check(CaddyLine(segment), config, into: &found) }
        return found
    }

    /// `closing`: the `}` of the route block the segment is in, where Caddy names an unknown
    /// directive inside one.
    /// Routes nested deeper than this are not looked into (a generated file can nest them
    /// without end).
    static let maximumDepth = 64

    private static func check(_ segment: CaddyLine, _ config: CaddyConfig, closing: CaddyToken? = nil, depth: Int = 0, into found: inout [Diagnostic]) {
        guard let name = segment.first else { return }
        if name.text.hasPrefix("@") { return }
        // The version is asked only for a name 2.6 does not know.
        guard CaddyDirectives.known.contains(name.text) || config.version.version.directives.contains(name.text) else {
            if let closing {
                found.append(
                    error(
                        "unrecognized directive: \(name.text) - are you sure your Caddyfile structure (nesting and braces) is correct?", at: closing, config,
                        notes: [.init("the directive is here; Caddy names the end of its block", at: location(of: name, config)), config.version.note]))
            } else {
                found.append(error("unrecognized directive: \(name.text)", at: name, config, notes: [config.version.note]))
            }
            return
        }
        if name.text == "handle_errors", segment.count > 1, segment[1].text != "{" {
            if !config.version.version.takesErrorStatuses {
                found.append(
                    error(
                        "Wrong argument count or unexpected line ending after '\(segment[1].text)'", at: segment[1], config,
                        notes: [
                            .init("status codes after handle_errors need Caddy 2.8; before it, match them inside: @5xx expression `{err.status_code} >= 500`"),
                            config.version.note,
                        ]))
            } else if let bad = CaddyErrorStatuses.arguments(of: segment).first(where: { CaddyErrorStatuses.codes($0.text) == nil }) {
                found.append(error("bad status value '\(bad.text)'", at: bad, config))
            }
        }
        let rootPathAsMatcher = name.text == "root" && segment.count == 2 && segment[1].text.hasPrefix("/")
        if !rootPathAsMatcher, let word = CaddyArgumentTable.shared.refusal(of: segment), config.version.version == .debian {
            found.append(error("Wrong argument count or unexpected line ending after '\(word.text)'", at: word, config, notes: [config.version.note]))
        }
        if let (word, message) = CaddyArgumentTable.shared.blockRefusal(of: segment), config.version.version == .debian {
            found.append(error(message, at: word, config, notes: [config.version.note]))
        }
        if rootPathAsMatcher, !config.version.version.takesRootWithoutMatcher {
            // Before 2.8 a first word that starts with '/' (quoted or not) is a path matcher,
            // leaving no root.
            found.append(
                error(
                    "Wrong argument count or unexpected line ending after 'root'", at: name, config,
                    notes: [.init("before Caddy 2.8 '\(segment[1].text)' is read as a path matcher: write 'root * \(segment[1].text)'"), config.version.note]))
        }
        if name.text == "tls" {
            for (word, message) in CaddyTLSValues.refusals(of: segment) { found.append(error(message, at: word, config)) }
        }
        // The version (`caddy version`, a process) is asked only once a subdirective is not 2.6's.
        let subdirectiveRefusals = CaddySubdirectiveTable.shared.refusals(of: segment)
        if !subdirectiveRefusals.isEmpty, config.version.version == .debian {
            for (word, message) in subdirectiveRefusals { found.append(error(message, at: word, config, notes: [config.version.note])) }
        }
        if name.text == "reverse_proxy" || name.text == "php_fastcgi" {
            for (word, message) in CaddyUpstreamAddress.refusals(of: segment) { found.append(error(message, at: word, config)) }
        }
        guard CaddyDirectives.routes.contains(name.text) else { return }
        guard depth < maximumDepth else {
            found.append(
                Diagnostic(
                    .note, CaddyRules.directive.id, "routes nest more than \(maximumDepth) deep here; detour does not check deeper",
                    at: location(of: name, config)))
            return
        }
        let inside = block(inside: segment)
        for line in inside.lines { check(line, config, closing: inside.closing, depth: depth + 1, into: &found) }
    }

    /// The lines of the block a segment opens (nested blocks kept with their line) and its `}`.
    static func block(inside segment: CaddyLine) -> (lines: [CaddyLine], closing: CaddyToken?) {
        guard let open = segment.firstIndex(where: { $0.text == "{" && !$0.isQuoted }) else { return ([], nil) }
        var lines: [CaddyLine] = []
        var depth = 0
        var lineStart: Int?
        var previous: CaddyToken?
        for index in (open + 1)..<segment.endIndex {
            let token = segment[index]
            if token.text == "}", !token.isQuoted, depth == 0 {
                if let lineStart { lines.append(segment[lineStart..<index]) }
                return (lines, token)
            }
            if depth == 0, !(previous?.isFollowedOnItsLine(by: token) ?? false) || lineStart == nil {
                if let lineStart { lines.append(segment[lineStart..<index]) }
                lineStart = index
            }
            if !token.isQuoted, token.text == "{" { depth += 1 }
            if !token.isQuoted, token.text == "}" { depth -= 1 }
            previous = token
        }
        if let lineStart { lines.append(segment[lineStart..<segment.endIndex]) }
        return (lines, nil)
    }

    static func block(inside segment: [CaddyToken]) -> (lines: [CaddyLine], closing: CaddyToken?) {
        block(inside: CaddyLine(segment))
    }

    private static func location(of token: CaddyToken, _ config: CaddyConfig) -> SourceLocation {
        token.location(in: config.files)
    }

    private static func error(_ message: String, at token: CaddyToken, _ config: CaddyConfig, notes: [Diagnostic.Note] = []) -> Diagnostic {
        .error(CaddyRules.directive.id, message, at: location(of: token, config), notes: notes)
    }
}
