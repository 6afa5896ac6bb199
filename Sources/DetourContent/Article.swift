import DetourDiagnostics
import DetourLayout
import DetourLogs
import DetourSupport
import DetourYAML
import Foundation

/// `content/articles/**/*.md`: a troubleshooting article.
public struct Article: Sendable {
    public enum Audience: String, Sendable, CaseIterable {
        case visitor, `operator`, developer
    }

    public var slug: String
    public var title: String
    public var summary: String
    public var codes: [Located<Int>]
    public var tags: [String]
    public var audience: Audience
    /// ISO date (YYYY-MM-DD) of the last factual review.
    public var updated: String?
    /// Log lines an operator will see for this problem, where each is written.
    public var logPatterns: [Located<String>]
    /// The command that confirms the cause on the operator's machine, for any server or per
    /// server; `detour diagnose` prints it with what the log names filled in.
    public var confirmation = LogConfirmation()
    /// Other names its subject goes by (`rolling update`): search weighs them as its title.
    public var aliases: [String] = []
    public var draft: Bool
    /// Markdown body and the line of the file it starts on.
    public var body: String
    public var bodyStartLine: Int
    public var source: SourceLocation
    public var slugLocation: SourceLocation
    /// Path relative to the content folder (`articles/php/fpm.md`), for resolving `other.md` links.
    public var relativePath: String
    /// Set when the body is read: its tree, which each page renders with its own root.
    public var document = MarkdownDocument("")
    /// Set instead of the tree when the body is read by a loader that keeps none
    /// (`ContentLoader.keepsTrees`): the body's hash, to find it unchanged when the page
    /// reads it again (`rereadDocument`).
    public var bodyHash: Int?
    /// Set while the body is let go between reading the front matter and parsing the body
    /// (`dropBody`): the whole file's hash, to find it unchanged when it is read again.
    var fileHash: Int?
    public var headings: [MarkdownDocument.Heading] = []
    /// What a link's `#part` may name: the headings' ids and raw HTML's anchors.
    public var anchors: [String] = []
    /// The body's plain text, split at its headings, for search: held, or read back from
    /// where `spillSections` wrote it (each read makes them anew).
    public var sections: [MarkdownDocument.Section] {
        get { searchSections.sections }
        set { searchSections = SearchSections(held: newValue) }
    }
    /// The same, as a small value to read them from later (the search index's pages keep it).
    public internal(set) var searchSections = SearchSections()
    /// Its fenced code blocks, for the checks that read the configuration they quote.
    public var codeBlocks: [CodeBlock] = []
    /// By language: the article as written in `<name>.<language>.md`, rendered too.
    public var translations: [String: Article] = [:]

    public var sitePath: String { SiteLayout.article(slug) }

    /// The folder it is filed in below `articles/` (`upstream`), its section; "" at the top.
    public var section: String {
        let parts = relativePath.split(separator: "/")
        return parts.count > 2 ? String(parts[1]) : ""
    }

    /// Its title in `language`: its translation's, else its own (without copying either).
    public func title(in language: String) -> String { translations[language]?.title ?? title }

    /// The article as a page in `language` shows it: its translation, else itself.
    public func translated(_ language: String) -> Article { translations[language] ?? self }

    /// Parses the Markdown body once (its tree, headings, sections for search, code blocks)
    /// and drops the text, which no page needs after this. What reading it found.
    mutating func readBody(with reader: MarkdownRenderer) -> MarkdownRenderer.Result {
        let start = SourceLocation(path: source.path, line: bodyStartLine)
        let output = reader.read(body, fromPath: relativePath, start: start)
        (document, headings, anchors, sections, codeBlocks, body) = (output.document, output.headings, output.anchors, output.sections, output.codeBlocks, "")
        return output
    }

    /// Parses the body once (`readBody`) and keeps only its hash, not its tree: a build of a
    /// large site reads each body again when its page is rendered, rather than hold every one.
    /// A body let go after its front matter was read (`dropBody`) is read from its file under
    /// `contentRoot` first; a file that changed meanwhile is reported and leaves the body empty.
    mutating func readBodyKeepingNoTree(with reader: MarkdownRenderer, contentRoot: URL) -> MarkdownRenderer.Result {
        var changed: [Diagnostic] = []
        if let fileHash {
            if let again = readAgain(contentRoot: contentRoot), again.text.hashValue == fileHash {
                body = again.body
            } else {
                changed.append(.contentChanged(source.path))
            }
            self.fileHash = nil
        }
        bodyHash = body.hashValue
        var output = readBody(with: reader)
        document = .empty
        output.diagnostics += changed
        return output
    }

    /// Lets the body go until `readBodyKeepingNoTree` reads it again from the file, whose whole
    /// text (`fileText`) must then be the same: the articles' front matter is read first, and
    /// a large site's bodies together are hundreds of megabytes.
    mutating func dropBody(fileText: String) {
        fileHash = fileText.hashValue
        body = ""
    }

    /// Moves the sections, and its translations', to `spill` (they stay if it refuses them):
    /// a build of a large site reads them back only for the search index.
    mutating func spillSections(to spill: TextSpill) {
        searchSections.spill(to: spill)
        for language in translations.keys { translations[language]!.spillSections(to: spill) }
    }

    /// The body read again from the file under `contentRoot`, parsed as the content loader
    /// parsed it; nil when the file no longer holds the body that was read (it changed since).
    public func rereadDocument(contentRoot: URL, markdown: MarkdownOptions) -> MarkdownDocument? {
        guard let again = readAgain(contentRoot: contentRoot), again.body.hashValue == bodyHash else { return nil }
        return MarkdownDocument(again.body, options: markdown)
    }

    /// The article's file under `contentRoot` as it is now: its whole text and its body; nil
    /// when it cannot be read or split.
    private func readAgain(contentRoot: URL) -> (text: String, body: String)? {
        let url = URL(fileURLWithPath: contentRoot.path + "/" + relativePath, isDirectory: false)
        guard case .success(let file) = SourceFile.read(url, displayPath: source.path), case .success(let parts) = FrontMatter.split(file) else { return nil }
        return (file.text, parts.body)
    }

    /// A translation read as `readBody` reads (or `readBodyKeepingNoTree`, given where the
    /// content is), and what its links' check found.
    func readingBody(with reader: MarkdownRenderer, keepingTreeUnder contentRoot: URL? = nil) -> (article: Article, diagnostics: [Diagnostic]) {
        var article = self
        let output = contentRoot.map { article.readBodyKeepingNoTree(with: reader, contentRoot: $0) } ?? article.readBody(with: reader)
        return (article, output.diagnostics)
    }
}

extension [Article] {
    /// Sorted in the order of every list of articles: by lower-cased title, then slug. Each
    /// title is lower-cased once rather than at every comparison, and the articles are moved
    /// once: 10,000 sorted as a whole took a tenth of a second on one core.
    mutating func sortInListOrder() {
        let keys = map { ($0.title.lowercased(), $0.slug) }
        let order = indices.sorted { keys[$0] < keys[$1] }
        self = order.map { self[$0] }
    }
}
