import DetourContent
import DetourDiagnostics
import DetourSupport

/// Reads the server configuration an article quotes with that server's own reader, so a typo in
/// the knowledge base's advice (`proxy_read_timout 60s;`) is a warning at its line in the
/// Markdown file. Only what the server would refuse is reported: syntax, directive names,
/// places and arguments.
public enum CodeBlockCheck {
    public static let rule = RuleDescription(
        "markdown.config-block", .warning, summary: "a configuration quoted in an article would be refused by its server",
        consequence: "readers who copy the advice get a server that does not start")

    public static func check(_ content: Content) -> [Diagnostic] {
        check(blocks: articleBlocks(content))
    }

    /// The blocks' findings, in their order.
    public static func check(blocks: [CodeBlock]) -> [Diagnostic] {
        blocks.filter { FragmentReader.byLanguage[$0.language] != nil }.concurrentMap(check).flatMap { $0 }
    }

    /// Every fenced block of the articles and their translations, in the order of the files.
    public static func articleBlocks(_ content: Content) -> [CodeBlock] {
        content.articles.flatMap { article in
            article.codeBlocks + article.translations.keys.sorted().flatMap { article.translations[$0]!.codeBlocks }
        }
    }

    static func check(_ block: CodeBlock) -> [Diagnostic] {
        guard let reader = FragmentReader.byLanguage[block.language] else { return [] }
        let start = block.start
        return reader.check(block.code, start.path, start.line, start.column - 1).map {
            .warning(rule.id, "\(reader.server) would refuse this block: \($0.message)", at: $0.location)
        }
    }
}
