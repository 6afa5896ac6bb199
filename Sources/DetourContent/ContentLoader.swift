import DetourDiagnostics
import DetourLanguages
import DetourLayout
import DetourSupport
import DetourYAML
import Foundation

/// Loads `content/`: site configuration, code definitions and articles; checks how they refer to
/// each other and parses their Markdown once. Every problem found is returned, none is thrown.
public struct ContentLoader: Sendable {
    public let root: URL
    /// How the content folder is named in diagnostics (`content`).
    public let displayRoot: String

    /// Draft articles are published too, as for a staging build (`detour build --drafts`).
    public var includeDrafts = false
    /// Replaces site.yml's `base_url` (`detour build --base-url`), with a final `/`.
    public var baseURL: String?
    /// Each article's tree is kept for pages to render; else it is let go once read, and pages
    /// read the body again (`Article.rereadDocument`), as `detour build` and `serve` do:
    /// holding every tree, or every body, of a site of a hundred thousand articles would take
    /// gigabytes. Then the bodies are not held while every front matter is read either: each
    /// is read from its file again when it is parsed (`Article.dropBody`).
    public var keepsTrees = true
    /// Whether articles' sections for search are written to a temporary file and read back
    /// when wanted (`Article.spillSections`), rather than held: for a build of a large site.
    public var spillsSections = false

    public init(root: URL, displayRoot: String, includeDrafts: Bool = false, baseURL: String? = nil) {
        self.root = root
        self.displayRoot = displayRoot.hasSuffix("/") ? String(displayRoot.dropLast()) : displayRoot
        self.includeDrafts = includeDrafts
        self.baseURL = baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    }

    public func load() -> (Content?, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return (nil, [.error("content.missing-folder", "content folder '\(displayRoot)' does not exist", at: SourceLocation(path: displayRoot))])
        }

        var site = loadSite(&diagnostics)
        if let baseURL { site?.baseURL = baseURL }
        let (loadedCodes, failedStatuses) = loadCodes(&diagnostics)
        var codes = loadedCodes
        var articles = ArticleTranslations.attach(
            loadArticles(keepingBodies: keepsTrees, &diagnostics), languages: site?.languages ?? [], diagnostics: &diagnostics)
        if includeDrafts {
            articles = articles.map {
                var article = $0
                article.draft = false
                return article
            }
        }
        ReferenceChecks(codes: codes, articles: articles, failedStatuses: failedStatuses).run(&diagnostics)
        diagnostics += LogPatternCheck.check(articles.filter { !$0.draft })
        let translations =
            site.map { site in
                TranslationLoader(
                    root: root, displayRoot: displayRoot,
                    site: .init(languages: site.languages, languageLocations: site.languageLocations, location: site.location),
                    codes: codes.map { .init(status: $0.status, generatesPage: $0.generatesPage, hasAdvice: $0.advice != nil) },
                    statuses: ErrorCodeReader.statusRange
                ).load(&diagnostics)
            } ?? [:]

        // Markdown is read even when site.yml failed, so broken links show in the same run.
        articles = articles.filter { !$0.draft }
        // A code whose file failed to load is reported there; links to it are not broken as well.
        let reader = MarkdownRenderer(
            resolver: LinkResolver(articles: articles, statuses: Set(codes.map(\.status)).union(failedStatuses)),
            markdown: site?.markdown ?? MarkdownOptions()
        )
        let treeless = keepsTrees ? nil : root
        let spill = spillsSections ? TextSpill() : nil
        // Only what the checks below need is kept of each reading: the article holds the rest,
        // and a large site's sections held here as well would double its text.
        let outputs = articles.concurrentUpdate { article -> (diagnostics: [Diagnostic], fragmentLinks: [MarkdownRenderer.FragmentLink]) in
            var output = treeless.map { article.readBodyKeepingNoTree(with: reader, contentRoot: $0) } ?? article.readBody(with: reader)
            // A translation's links are checked as the original's; its headings are its own,
            // so links into them are not held against the original's.
            for language in article.translations.keys.sorted() {
                let translated = article.translations[language]!.readingBody(with: reader, keepingTreeUnder: treeless)
                article.translations[language] = translated.article
                output.diagnostics += translated.diagnostics
            }
            if let spill { article.spillSections(to: spill) }
            return (output.diagnostics, output.fragmentLinks)
        }
        let slugs = articles.map(\.slug)
        articles.sortInListOrder()
        var headingLinks = HeadingLinkCheck(articles: articles)
        for (slug, output) in zip(slugs, outputs) {
            diagnostics += output.diagnostics
            headingLinks.add(output.fragmentLinks, onArticle: slug)
        }
        codes = codes.map { readCodeMarkdown($0, reader: reader, headingLinks: &headingLinks, diagnostics: &diagnostics) }.sorted {
            $0.status < $1.status
        }
        var translatedAdvice: [String: [Int: MarkdownDocument]] = [:]
        for translation in translations.values.sorted(by: { $0.language < $1.language }) {
            for (status, text) in translation.codes.sorted(by: { $0.key < $1.key }) {
                guard let advice = text.advice else { continue }
                translatedAdvice[translation.relativePath, default: [:]][status] =
                    readCodeText(advice, in: translation.relativePath, reader: reader, headingLinks: &headingLinks, diagnostics: &diagnostics).document
            }
        }
        diagnostics += headingLinks.brokenLinks()
        guard let site else { return (nil, diagnostics) }
        var content = Content(site: site, codes: codes, articles: articles, translations: translations, translatedAdvice: translatedAdvice)
        content.linkedHeadings = headingLinks.linkedFromElsewhere()
        return (content, diagnostics)
    }

    /// Advice and operator notes, parsed once for the pages and search that show them.
    private func readCodeMarkdown(_ code: ErrorCode, reader: MarkdownRenderer, headingLinks: inout HeadingLinkCheck, diagnostics: inout [Diagnostic])
        -> ErrorCode
    {
        var code = code
        if let advice = code.advice {
            code.adviceDocument = readCodeText(advice, in: code.relativePath, reader: reader, headingLinks: &headingLinks, diagnostics: &diagnostics).document
        }
        if let notes = code.operatorNotes {
            code.operatorNotesDocument =
                readCodeText(notes, in: code.relativePath, reader: reader, headingLinks: &headingLinks, diagnostics: &diagnostics).document
        }
        return code
    }

    /// Markdown from a code or translation file, parsed: its problems are collected, and its
    /// links to headings kept until every article's headings are known.
    private func readCodeText(
        _ markdown: Located<String>, in relativePath: String, reader: MarkdownRenderer, headingLinks: inout HeadingLinkCheck, diagnostics: inout [Diagnostic]
    ) -> MarkdownRenderer.Result {
        let output = reader.read(markdown.value, fromPath: relativePath, start: markdown.location)
        diagnostics += output.diagnostics
        headingLinks.add(output.fragmentLinks, onArticle: nil)
        return output
    }

    private func displayPath(_ relative: String) -> String { displayRoot + "/" + relative }

    private func loadSite(_ diagnostics: inout [Diagnostic]) -> SiteConfig? {
        let url = root.appendingPathComponent("site.yml")
        guard FileManager.default.fileExists(atPath: url.path) else {
            diagnostics.append(
                .error(
                    "content.missing-file", "site configuration '\(displayPath("site.yml"))' does not exist; it names the brand (name, base_url, …)",
                    at: SourceLocation(path: displayPath("site.yml"))))
            return nil
        }
        switch SourceFile.read(url, displayPath: displayPath("site.yml")) {
        case .success(let file):
            return SiteConfigReader(contentRoot: root, displayRoot: displayRoot).read(file, diagnostics: &diagnostics)
        case .failure(let diagnostic):
            diagnostics.append(diagnostic)
            return nil
        }
    }

    /// The codes that loaded, and the statuses of files that failed (named by their file,
    /// `502.yml`), so what only follows from that failure is not reported again.
    private func loadCodes(_ diagnostics: inout [Diagnostic]) -> ([ErrorCode], Set<Int>) {
        let files = files(under: "codes", extensions: ["yml", "yaml"], diagnostics: &diagnostics)
        var codes: [ErrorCode] = []
        var failed = Set<Int>()
        for relative in files {
            switch SourceFile.read(fileURL(relative), displayPath: displayPath(relative)) {
            case .success(let file):
                if let code = ErrorCodeReader.read(file, relativePath: relative, diagnostics: &diagnostics) {
                    codes.append(code)
                    continue
                }
            case .failure(let diagnostic):
                diagnostics.append(diagnostic)
            }
            let stem = ((relative as NSString).lastPathComponent as NSString).deletingPathExtension
            if let status = Int(stem) { failed.insert(status) }
        }
        return (codes, failed)
    }

    /// `keepingBodies`: false to let each body go until it is parsed (`Article.dropBody`).
    private func loadArticles(keepingBodies: Bool, _ diagnostics: inout [Diagnostic]) -> [Article] {
        let files = files(under: "articles", extensions: ["md"], diagnostics: &diagnostics)
        let results = files.concurrentMap { relative -> (Article?, [Diagnostic]) in
            var found: [Diagnostic] = []
            switch SourceFile.read(fileURL(relative), displayPath: displayPath(relative)) {
            case .success(let file):
                var article = ArticleReader.read(file, relativePath: relative, diagnostics: &found)
                if !keepingBodies { article?.dropBody(fileText: file.text) }
                return (article, found)
            case .failure(let diagnostic):
                return (nil, [diagnostic])
            }
        }
        diagnostics += results.flatMap(\.1)
        return results.compactMap(\.0)
    }

    /// Content-relative paths of the files below `folder` with one of `extensions`, sorted.
    /// Links to files outside the content folder are reported, not read.
    private func files(under folder: String, extensions: [String], diagnostics: inout [Diagnostic]) -> [String] {
        let listing = DirectoryWalker.list(root.path, suffixes: extensions.map { "." + $0 }, below: folder)
        for link in listing.escapingLinks {
            diagnostics.append(
                .error(
                    "file.path-escape", "'\(link)' links to a file outside \(displayRoot)/; copy the file in instead",
                    at: SourceLocation(path: displayPath(link))))
        }
        return listing.files
    }

    /// A file URL without the stat that `appendingPathComponent` makes to ask if it is a folder.
    private func fileURL(_ relative: String) -> URL {
        URL(fileURLWithPath: root.path + "/" + relative, isDirectory: false)
    }
}
