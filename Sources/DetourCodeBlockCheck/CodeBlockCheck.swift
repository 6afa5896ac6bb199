import DetourContent
import DetourDiagnostics
import DetourSupport
import Synchronization

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

    /// The blocks' findings, in their order. Each distinct block is read once per process: a
    /// large knowledge base quotes the same configuration in many articles, and `detour serve`
    /// checks an edited article's blocks again on every save.
    public static func check(blocks: [CodeBlock]) -> [Diagnostic] {
        let checked = blocks.compactMap { block in FragmentReader.byLanguage[block.language].map { (block, BlockKey(server: $0.server, code: block.code)) } }
        let known = remembered.withLock { memory in checked.map { memory[$0.1] } }
        var seen = Set<BlockKey>()
        let unread = zip(checked, known).compactMap { $1 == nil && seen.insert($0.1).inserted ? $0 : nil }
        let read = unread.concurrentMap { findings(of: $0.0) }
        let fresh = Dictionary(uniqueKeysWithValues: zip(unread.map(\.1), read))
        remembered.withLock { memory in memory.merge(fresh) { old, _ in old } }
        return zip(checked, known).flatMap { checked, known in
            (known ?? fresh[checked.1]!).map { moved($0, to: checked.0.start) }
        }
    }

    /// A block's findings as if it started at line 1, column 1 of a file named "".
    private static let remembered = Mutex<[BlockKey: [Diagnostic]]>([:])

    private struct BlockKey: Hashable, Sendable {
        var server: String
        var code: String
    }

    /// Every fenced block of the articles and their translations, in the order of the files.
    public static func articleBlocks(_ content: Content) -> [CodeBlock] {
        content.articles.flatMap { article in
            article.codeBlocks + article.translations.keys.sorted().flatMap { article.translations[$0]!.codeBlocks }
        }
    }

    /// What the server would refuse in `block`, located as if it started at line 1, column 1
    /// of a file named "": the readers' messages name no line or file of the article.
    private static func findings(of block: CodeBlock) -> [Diagnostic] {
        guard let reader = FragmentReader.byLanguage[block.language] else { return [] }
        return reader.check(block.code, "", 1, 0).map {
            .warning(rule.id, "\(reader.server) would refuse this block: \($0.message)", at: $0.location)
        }
    }

    private static func moved(_ finding: Diagnostic, to start: SourceLocation) -> Diagnostic {
        var moved = finding
        moved.location = SourceLocation(path: start.path, line: finding.location.line + start.line - 1, column: finding.location.column + start.column - 1)
        return moved
    }
}
