import DetourSite
import DetourTestSupport
import Foundation

/// A small site of articles in English, one translated into German, under two codes, in a
/// folder of its own with a templates folder, its files written a minute ago.
final class EditedSite {
    /// One edit, on the article (or other file) `pick` chooses.
    struct Edit: Sendable, CustomStringConvertible {
        enum Kind: CaseIterable, Sendable {
            case textInParagraph, newParagraph, removedParagraph, newHeading, title, tags, newArticle, deletedArticle, renamedArticle
            case translation, code, template
        }

        var kind: Kind
        var pick: Int
        /// Whether a pause longer than the racy window comes before the build.
        var pause: Bool

        var description: String { "\(kind)(\(pick))\(pause ? " then a pause" : "")" }
    }

    let folder: TemporaryFolder
    private var edits = 0

    init() throws {
        var files: [String: String] = [
            "content/site.yml": "name: Edited\nbase_url: https://help.edited.test/\nsupport:\n  email: help@edited.test\nlanguages: [en, de]\n",
            "content/codes/502.yml": "status: 502\ntitle: Bad Gateway\nsummary: No valid answer.\nadvice: |\n  Try again.\nrelated: [topic-0]\n",
            "content/codes/503.yml": "status: 503\ntitle: Service Unavailable\nsummary: Not now.\nadvice: |\n  Try later.\n",
            "content/articles/topic-0.de.md": Self.article(0, title: "Thema 0"),
            "templates/partials/footer.mustache": "<footer>Edited</footer>\n",
        ]
        for number in 0..<5 { files["content/articles/topic-\(number).md"] = Self.article(number, title: "Topic \(number)") }
        for language in ["en", "de"] {
            files["content/translations/\(language).yml"] = try String(
                contentsOf: Repository.content.appendingPathComponent("translations/\(language).yml"), encoding: .utf8)
        }
        folder = try TemporaryFolder(files: files)
        try folder.age(by: 60)
    }

    static func article(_ number: Int, title: String) -> String {
        """
        ---
        title: \(title)
        summary: What happens to upstream \(number).
        codes: [\(502 + number % 2)]
        tags: [\(number % 2 == 0 ? "nginx" : "caddy")]
        updated: 2026-11-20
        ---

        The upstream \(number) refused the connection.

        ## Check upstream \(number)

        Look at the port. See [the code](/codes/502/).

        ## Fix upstream \(number)

        Start it again.

        """
    }

    func build() -> BuildReport { SiteBuilder.build(options(output: "public", cache: .use)) }

    /// A `--no-cache` build of the same content into `clean/`, replacing the last one.
    func cleanBuild() -> BuildReport { SiteBuilder.build(options(output: "clean", cache: .off)) }

    private func options(output: String, cache: BuildOptions.Cache) -> BuildOptions {
        var options = BuildOptions(output: output, base: folder.url)
        options.cache = cache
        options.toolIdentity = "test"
        return options
    }

    /// The English articles, by content-relative path.
    private var articles: [String] {
        (FileManager.default.subpaths(atPath: folder.path + "/content/articles") ?? []).filter { $0.hasSuffix(".md") && !$0.hasSuffix(".de.md") }
            .sorted().map { "content/articles/" + $0 }
    }

    func apply(_ edit: Edit) throws {
        edits += 1
        let mark = "edit\(edits)"
        let articles = self.articles
        let article = articles[edit.pick % articles.count]
        switch edit.kind {
        case .textInParagraph: try change(article) { $0.replacingOccurrences(of: "Start it again.", with: "Start it again, \(mark).") }
        case .newParagraph: try change(article) { $0.replacingOccurrences(of: "Start it again.", with: "Start it again.\n\nA paragraph of \(mark).") }
        case .removedParagraph: try change(article) { $0.replacingOccurrences(of: "Look at the port. See [the code](/codes/502/).\n\n", with: "") }
        case .newHeading: try change(article) { $0 + "\n## Heading \(mark)\n\nText of \(mark).\n" }
        case .title: try change(article) { Self.replacing("title: ", with: "title: Title \(mark)", in: $0) }
        case .tags: try change(article) { Self.replacing("tags: ", with: "tags: [\(mark)]", in: $0) }
        case .newArticle: try folder.write(["content/articles/new-\(mark).md": Self.article(edits, title: "New \(mark)")])
        case .deletedArticle:
            // The one the code lists stays: its `related` would break.
            guard articles.count > 1, article != "content/articles/topic-0.md" else { return }
            try FileManager.default.removeItem(atPath: folder.path + "/" + article)
        case .renamedArticle:
            guard article != "content/articles/topic-0.md" else { return }
            try FileManager.default.moveItem(atPath: folder.path + "/" + article, toPath: folder.path + "/content/articles/renamed-\(mark).md")
        case .translation: try change("content/articles/topic-0.de.md") { $0.replacingOccurrences(of: "Start it again.", with: "Start it again, \(mark).") }
        case .code: try change("content/codes/503.yml") { Self.replacing("summary: ", with: "summary: Not now, \(mark).", in: $0) }
        case .template: try folder.write(["templates/partials/footer.mustache": "<footer>Edited, \(mark)</footer>\n"])
        }
    }

    private func change(_ relative: String, _ transform: (String) -> String) throws {
        try folder.write([relative: transform(try folder.read(relative))])
    }

    /// `text` with the line that starts with `prefix` replaced by `line`.
    private static func replacing(_ prefix: String, with line: String, in text: String) -> String {
        text.components(separatedBy: "\n").map { $0.hasPrefix(prefix) ? line : $0 }.joined(separator: "\n")
    }
}
