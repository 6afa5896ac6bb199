import DetourContent
import DetourDiagnostics
import DetourNginx
import DetourSupport

/// Reads the server configuration an article quotes with that server's own reader, so a typo in
/// the knowledge base's advice (`proxy_read_timout 60s;`) is a warning at its line in the
/// Markdown file. Only what the server would refuse is reported: syntax, directive names,
/// places and arguments.
public enum CodeBlockCheck {
    public static let rule = RuleDescription(
        "markdown.config-block", .warning, summary: "a configuration quoted in an article would be refused by its server",
        consequence: "readers who copy the advice get a server that does not start")

    /// The languages whose blocks are read, by the info string's first word.
    public static let languages = ["nginx", "caddyfile", "caddy", "haproxy", "apache", "apacheconf"]

    public static func check(_ content: Content) -> [Diagnostic] {
        let blocks = content.articles.flatMap { article in
            article.codeBlocks + article.translations.keys.sorted().flatMap { article.translations[$0]!.codeBlocks }
        }
        return blocks.filter { languages.contains($0.language) }.concurrentMap(check).flatMap { $0 }
    }

    static func check(_ block: CodeBlock) -> [Diagnostic] {
        let found: [Diagnostic]
        let start = block.start
        switch block.language {
        case "nginx": found = NginxFragmentCheck.check(block.code, path: start.path, firstLine: start.line, indent: start.column - 1)
        case "caddyfile", "caddy": found = FragmentChecks.caddy.check(block.code, path: start.path, firstLine: start.line, indent: start.column - 1)
        case "haproxy": found = FragmentChecks.haproxy.check(block.code, path: start.path, firstLine: start.line, indent: start.column - 1)
        default: found = FragmentChecks.apache.check(block.code, path: start.path, firstLine: start.line, indent: start.column - 1)
        }
        let server = ["caddyfile": "Caddy", "caddy": "Caddy", "haproxy": "HAProxy", "apache": "Apache", "apacheconf": "Apache"][block.language] ?? "nginx"
        return found.map { .warning(rule.id, "\(server) would refuse this block: \($0.message)", at: $0.location) }
    }
}
