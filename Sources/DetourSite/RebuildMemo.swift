import DetourContent
import DetourLayout
import DetourSupport
import Foundation

/// What rewriting one article's pages and index entries after its text changed needs of the
/// last full build (`ArticleRebuild`), kept beside its `BuildCache` record: how the rest of
/// the site reads an article's links, where each article's text shows, and each article's
/// text as the build read it (in `sources`). Each language's `SearchIndexMemo` is kept beside
/// it. Written as lines of tab-separated fields, read in a few milliseconds for ten thousand
/// articles, where JSON took a quarter of a second.
struct RebuildMemo {
    struct Article: Equatable {
        var slug: String
        var headingIDs: [String]
        /// The heading ids other pages link to, found or not: changing those changes findings.
        var linkedHeadings: [String] = []
        /// The languages whose pages and index show its text: those it has no translation in.
        var languages: [String]
        /// Its text's offset and length in `sources`, when the build could copy it.
        var source: [Int]?
    }

    /// One page showing an article's text, and the index of its language.
    struct Showing {
        var language: String
        /// The page's file in the output.
        var page: String
        /// The language's folder of pages (empty for the default language's), and of its index.
        var folder: String
        var searchFolder: String
    }

    /// By content-relative path.
    var articles: [String: Article] = [:]
    var statuses: [Int] = []
    var markdown = MarkdownOptions()
    var includeDrafts = false
    var defaultLanguage = ""
    /// The strings of the default language, which an article's text is rendered in.
    var strings: [String: String] = [:]
    /// Each language's UI strings as pages show them (`PageModel.pageStrings`).
    var pageStrings: [String: [String: String]] = [:]
    /// How many amendments (`amendment(of:)`) the memo read had after it was last written whole.
    private(set) var amendments = 0

    /// The memo of a build of `content`.
    init(content: Content, includeDrafts: Bool) {
        for article in content.articles {
            articles[article.relativePath] = Article(
                slug: article.slug, headingIDs: article.anchors, linkedHeadings: content.linkedHeadings[article.slug, default: []].sorted(),
                languages: content.site.languages.filter { article.translations[$0] == nil })
        }
        statuses = content.codes.map(\.status).sorted()
        markdown = content.site.markdown
        self.includeDrafts = includeDrafts
        defaultLanguage = content.site.language
        strings = content.strings(in: content.site.language)
        pageStrings = Dictionary(uniqueKeysWithValues: content.site.languages.map { ($0, PageModel.pageStrings(content, in: $0)) })
    }

    /// How the content load read links, for an article read alone.
    var site: ArticleAlone.Site {
        ArticleAlone.Site(
            articlesByPath: articles.mapValues(\.slug),
            statuses: statuses, headingIDs: Dictionary(articles.values.map { ($0.slug, $0.headingIDs) }, uniquingKeysWith: { first, _ in first }),
            markdown: markdown, includeDrafts: includeDrafts)
    }

    /// The pages, and indexes, that show the text of the article at `path`.
    func showings(of path: String) -> [Showing]? {
        guard let article = articles[path] else { return nil }
        return article.languages.map { language in
            let folder = SiteLayout.languageFolder(language, defaultLanguage: defaultLanguage)
            return Showing(
                language: language, page: SiteLayout.file(of: folder + SiteLayout.article(article.slug)), folder: folder,
                searchFolder: SiteLayout.searchIndex(language))
        }
    }

    static func file(in folder: URL) -> URL { folder.appendingPathComponent("rebuild") }
    static func sourcesFile(in folder: URL) -> URL { folder.appendingPathComponent("sources") }
    /// Where a build copies the texts while it runs, until its output is in place.
    static func stagedSourcesFile(in folder: URL) -> URL { folder.appendingPathComponent("sources.new") }
    static func searchFile(in folder: URL, language: String) -> URL { folder.appendingPathComponent("search-\(language)") }
    /// Where a build writes a language's index memo as soon as it is made, until its output is in place.
    static func stagedSearchFile(in folder: URL, language: String) -> URL { folder.appendingPathComponent("search-\(language).new") }

    /// Copies every article's file into `sources` as the listing `inputs` (`InputFiles`)
    /// describes it: a file that differs from its line is left out, and its change is then
    /// more than a rebuild of its pages.
    mutating func copySources(contentRoot: URL, inputs: String, into url: URL) throws {
        let listed = InputFiles.entries(inputs)
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var offset = 0
        for path in articles.keys.sorted() {
            let file = contentRoot.path + "/" + path
            guard let line = listed["content/" + path], let data = FileManager.default.contents(atPath: file),
                InputFiles.describes(line, path: file, contents: data)
            else {
                continue
            }
            try handle.write(contentsOf: data)
            articles[path]!.source = [offset, data.count]
            offset += data.count
        }
    }

    // MARK: - As lines

    private static let header = "detour-rebuild-memo 3"

    /// The memo as lines; nil when a field holds a tab or a line feed.
    var encoded: [UInt8]? {
        guard let strings = try? JSONEncoder().encode(strings), let pageStrings = try? JSONEncoder().encode(pageStrings) else { return nil }
        var out = Array(
            [
                Self.header, defaultLanguage, statuses.map(String.init).joined(separator: " "),
                "\(markdown.rawHTML) \(includeDrafts) \(markdown.smartPunctuation)", "",
            ].joined(separator: "\n")
                .utf8)
        out += Array(strings) + [0x0A] + Array(pageStrings) + [0x0A]
        for (path, article) in articles.sorted(by: { $0.key < $1.key }) where !Self.append(path, article, to: &out) { return nil }
        return out
    }

    /// The lines of the articles at `paths` after a line `+`, to append to the memo's file:
    /// read after the lines before them, they take their place. Writing the whole memo took a
    /// tenth of a text edit's rebuild at ten thousand articles. Nil as `encoded`.
    func amendment(of paths: Set<String>) -> [UInt8]? {
        var out = Array("+\n".utf8)
        for path in paths.sorted() {
            guard let article = articles[path], Self.append(path, article, to: &out) else { return nil }
        }
        return out
    }

    /// An article's line; false when a field holds a tab or a line feed.
    private static func append(_ path: String, _ article: Article, to out: inout [UInt8]) -> Bool {
        let fields = [path, article.slug, article.languages.joined(separator: ",")] + article.linkedHeadings + article.headingIDs
        guard !fields.contains(where: { $0.utf8.contains(0x09) || $0.utf8.contains(0x0A) }) else { return false }
        out += Array((fields[0..<3].joined(separator: "\t") + "\t").utf8)
        if let source = article.source {
            FieldLines.append(source[0], to: &out)
            out.append(UInt8(ascii: " "))
            FieldLines.append(source[1], to: &out)
        }
        out += [0x09]
        FieldLines.append(article.linkedHeadings.count, to: &out)
        for id in article.linkedHeadings + article.headingIDs { out += [0x09] + Array(id.utf8) }
        out.append(0x0A)
        return true
    }

    init?(encoded bytes: [UInt8]) {
        var line = 0
        let read = FieldLines.forEach(in: bytes, separator: 0x09) { fields in
            defer { line += 1 }
            switch line {
            case 0: return FieldLines.string(fields[0]) == Self.header
            case 1: defaultLanguage = FieldLines.string(fields[0])
            case 2: statuses = FieldLines.integers(fields[0]) ?? []
            case 3:
                let flags = FieldLines.string(fields[0]).split(separator: " ")
                guard flags.count == 3 else { return false }
                (markdown.rawHTML, includeDrafts, markdown.smartPunctuation) = (flags[0] == "true", flags[1] == "true", flags[2] == "true")
            case 4:
                guard let strings = try? JSONDecoder().decode([String: String].self, from: Data(fields[0])) else { return false }
                self.strings = strings
            case 5:
                guard let strings = try? JSONDecoder().decode([String: [String: String]].self, from: Data(fields[0])) else { return false }
                pageStrings = strings
            default:
                if fields.count == 1, FieldLines.string(fields[0]) == "+" {
                    amendments += 1
                    return true
                }
                guard fields.count >= 5 else { return fields.count == 1 && fields[0].isEmpty }
                let source = FieldLines.integers(fields[3]) ?? []
                guard let linked = FieldLines.integers(fields[4]), linked.count == 1, fields.count >= 5 + linked[0] else { return false }
                let names = fields.dropFirst(5).map(FieldLines.string)
                articles[FieldLines.string(fields[0])] = Article(
                    slug: FieldLines.string(fields[1]), headingIDs: Array(names.dropFirst(linked[0])), linkedHeadings: Array(names.prefix(linked[0])),
                    languages: FieldLines.string(fields[2]).split(separator: ",").map(String.init), source: source.count == 2 ? source : nil)
            }
            return true
        }
        guard read, line >= 6 else { return nil }
    }
}
