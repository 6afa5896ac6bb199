import DetourCodeBlockCheck
import DetourContent
import DetourDiagnostics
import DetourLayout
import DetourSearch
import DetourSupport
import Foundation

/// `detour build` when only articles' bodies changed since the last build into the output
/// (their text, headings and sections; their front matter as it was): each article's old text
/// (kept by that build, `RebuildMemo`) and new are read alone, the part of each page showing it
/// that differs is swapped (`ArticlePagePatch`), and each language's index is patched
/// (`SearchIndexPatch`). The files that differ are written beside the output and renamed into
/// it together; the findings are the last build's with the article's own replaced. Anything
/// more, or anything a patch cannot do exactly, and the build runs in full instead: the output
/// is what a full build writes.
enum ArticleRebuild {
    /// How the build went when it was done so; nil when it must run in full.
    /// `record`: the last build's, into the output as it is now (`BuildCache.record(of:)`), by
    /// the same detour with the same options; `changed`: the input files changed since
    /// (`InputFiles.changes`).
    static func run(_ options: BuildOptions, cache: BuildCache, key: BuildCache.Key, record: BuildCache.Record, changed: [String]) -> BuildReport? {
        var report = BuildReport()
        return run(options, cache: cache, key: key, record: record, changed: changed, report: &report) ? report : nil
    }

    private static func run(
        _ options: BuildOptions, cache: BuildCache, key: BuildCache.Key, record: BuildCache.Record, changed: [String], report: inout BuildReport
    ) -> Bool {
        // An article that came or went is no article `apply` knows both texts of.
        guard !changed.isEmpty, changed.allSatisfy({ $0.hasPrefix("content/articles/") && $0.hasSuffix(".md") }),
            let memoData = try? Data(contentsOf: RebuildMemo.file(in: cache.folder)), var memo = RebuildMemo(encoded: Array(memoData))
        else { return false }
        var rebuild = Rebuild(options: options, cache: cache, memo: memo, standing: record.diagnostics)
        for path in changed {
            guard rebuild.apply(String(path.dropFirst("content/".count))) else { return false }
        }
        // Each article was read against the others' headings as they were.
        guard changed.count == 1 || !rebuild.headingsChanged else { return false }
        memo = rebuild.memo
        report.diagnostics = rebuild.standing
        (report.errorPages, report.articles, report.files) = (record.errorPages, record.articles, record.files)
        // A failing change leaves the output, and the record of what it was made from, as they were.
        guard !SiteBuilder.failed(rebuild.standing, options) else { return true }
        let files = rebuild.pending.sorted { $0.key < $1.key }.map { (path: $0.key, contents: $0.value) }
        cache.forget()
        let previousMask = umask(0o022)
        defer { umask(previousMask) }
        do {
            try OutputDirectory(target: options.output).replaceTogether(files)
        } catch {
            report.diagnostics.append(SiteBuilder.writeFailure(options, error))
            return true
        }
        report.rewritten = files.map { $0.path }
        report.upToDate = files.isEmpty
        // What the next rebuild starts from: the articles' texts, the memos, the record.
        guard let handle = try? FileHandle(forWritingTo: RebuildMemo.sourcesFile(in: cache.folder)), let end = try? handle.seekToEnd() else { return true }
        var offset = Int(end)
        for (relative, text) in rebuild.texts.sorted(by: { $0.key < $1.key }) {
            let data = Data(text.utf8)
            guard (try? handle.write(contentsOf: data)) != nil else { return true }
            memo.articles[relative]?.source = [offset, data.count]
            offset += data.count
        }
        try? handle.close()
        // Each memo is amended, until it has been `wholeAfter` times: each amendment read costs a little.
        let memoWrite = Self.write(amended: memo.amendments, amendment: memo.amendment(of: rebuild.touched), whole: { memo.encoded })
        var searchWrites: [String: BuildCache.MemoWrite] = [:]
        for (language, searchMemo) in rebuild.searchMemos {
            guard let saved = rebuild.savedSearchMemos[language],
                let write = Self.write(amended: searchMemo.amendments, amendment: searchMemo.amendment(from: saved), whole: { searchMemo.encoded })
            else { return true }
            searchWrites[language] = write
        }
        if let memoWrite, cache.save(memoWrite, searchMemos: searchWrites) { cache.save(key, report: report, output: options.output) }
        return true
    }

    static let wholeAfter = 64

    /// A memo read with `amended` amendments: amended again, or written whole.
    private static func write(amended: Int, amendment: @autoclosure () -> [UInt8]?, whole: () -> [UInt8]?) -> BuildCache.MemoWrite? {
        if amended < wholeAfter, let lines = amendment() { return .amendment(lines) }
        return whole().map { .whole($0) }
    }

    /// The changes worked out one article at a time, nothing written yet.
    private struct Rebuild {
        let options: BuildOptions
        let cache: BuildCache
        var memo: RebuildMemo
        var standing: [Diagnostic]
        /// An article's heading ids changed.
        var headingsChanged = false
        /// Output files to write, by path.
        var pending: [String: String] = [:]
        var searchMemos: [String: SearchIndexMemo] = [:]
        /// The index memos as the last build left them, to amend.
        var savedSearchMemos: [String: SearchIndexMemo] = [:]
        /// The articles whose lines in the memo changed.
        var touched: Set<String> = []
        /// The articles' new texts, by content-relative path.
        var texts: [String: String] = [:]
        private let renderer: MarkdownRenderer
        private let sources: FileHandle?
        /// The theme, read when a page first needs it.
        private let theme: Theme

        private let site: ArticleAlone.Site

        init(options: BuildOptions, cache: BuildCache, memo: RebuildMemo, standing: [Diagnostic]) {
            (self.options, self.cache, self.memo, self.standing) = (options, cache, memo, standing)
            site = memo.site
            renderer = site.reader.speaking(memo.strings)
            sources = try? FileHandle(forReadingFrom: RebuildMemo.sourcesFile(in: cache.folder))
            theme = Theme(options)
        }

        /// Works out what the article at `relative` changes; false when that is more than its body.
        mutating func apply(_ relative: String) -> Bool {
            guard let showings = memo.showings(of: relative), let oldText = oldText(of: relative),
                let newText = FileManager.default.contents(atPath: options.content.path + "/" + relative).map({ String(decoding: $0, as: UTF8.self) })
            else { return false }
            if oldText == newText { return true }
            let (oldArticle, oldFound, _) = ArticleAlone.read(oldText, relativePath: relative, displayRoot: options.contentDisplay, site: site)
            let (newArticle, newFound, newLinks) = ArticleAlone.read(newText, relativePath: relative, displayRoot: options.contentDisplay, site: site)
            guard let oldArticle, let newArticle, ArticleAlone.onlyBodyChanged(oldArticle, newArticle, oldText: oldText, newText: newText),
                standing.removeEach(of: oldFound + CodeBlockCheck.check(blocks: oldArticle.codeBlocks)), noteLinks(of: relative, newArticle, newLinks)
            else { return false }
            standing += newFound + CodeBlockCheck.check(blocks: newArticle.codeBlocks)
            texts[relative] = newText
            touched.insert(relative)
            if newFound.hasErrors { return true }
            let oldHTML = renderer.html(oldArticle.document, fromPath: relative, root: SiteLayout.nestedRoot)
            let newHTML = renderer.html(newArticle.document, fromPath: relative, root: SiteLayout.nestedRoot)
            let (oldOwn, newOwn) = (ArticlePagePatch.Own(oldArticle, html: oldHTML), ArticlePagePatch.Own(newArticle, html: newHTML))
            for showing in showings {
                if oldOwn != newOwn {
                    guard let page = output(showing.page), let patch = pagePatch(showing.language), let patched = patch.patch(page, from: oldOwn, to: newOwn)
                    else { return false }
                    pending[showing.page] = patched
                }
                guard var searchMemo = searchMemos[showing.language] ?? savedSearchMemo(showing.language) else { return false }
                savedSearchMemos[showing.language] = savedSearchMemos[showing.language] ?? searchMemo
                let files = SearchIndexPatch.patch(
                    old: SearchPages.page(of: oldArticle, in: showing.folder), new: SearchPages.page(of: newArticle, in: showing.folder),
                    language: showing.language, memo: &searchMemo, read: { [self] in output(showing.searchFolder + $0) })
                guard let patched = files else { return false }
                searchMemos[showing.language] = searchMemo
                for file in patched.files { pending[showing.searchFolder + file.path] = file.contents }
                // The search page carries the default language's entry.
                if let entry = patched.entry {
                    guard showing.language != memo.defaultLanguage || swapEntry(entry) else { return false }
                }
            }
            return true
        }

        /// Keeps what the memo knows of links into headings true after the article at
        /// `relative` was read anew: false when a heading that other pages link to came or went
        /// (their findings change). The headings it links to in other articles are added to
        /// theirs; those it no longer links to are left, which costs at most a full build later.
        private mutating func noteLinks(of relative: String, _ article: Article, _ links: [String: Set<String>]) -> Bool {
            guard let entry = memo.articles[relative] else { return false }
            let ids = article.anchors
            if ids != entry.headingIDs {
                guard entry.linkedHeadings.allSatisfy({ entry.headingIDs.contains($0) == ids.contains($0) }) else { return false }
                memo.articles[relative]?.headingIDs = ids
                headingsChanged = true
            }
            guard !links.isEmpty else { return true }
            let pathsBySlug = Dictionary(memo.articles.map { ($0.value.slug, $0.key) }, uniquingKeysWith: { first, _ in first })
            for (slug, fragments) in links {
                guard let path = pathsBySlug[slug], let linked = memo.articles[path]?.linkedHeadings else { return false }
                let union = Set(linked).union(fragments).sorted()
                guard union != linked else { continue }
                memo.articles[path]?.linkedHeadings = union
                touched.insert(path)
            }
            return true
        }

        /// How the pages of `language` are patched; nil without their strings.
        private func pagePatch(_ language: String) -> ArticlePagePatch? {
            guard let strings = memo.pageStrings[language] else { return nil }
            return ArticlePagePatch(templates: { [theme] in theme.templates }, strings: strings, pageLanguage: language, bodyLanguage: memo.defaultLanguage)
        }

        /// The search page with the index's entry swapped, as its template shows it (in an
        /// attribute, escaped, or as it is); false when it is not there once.
        private mutating func swapEntry(_ entry: (old: String, new: String)) -> Bool {
            let path = SiteLayout.file(of: SiteLayout.search)
            guard let page = output(path) else { return false }
            for (old, new) in [(HTMLText.escape(entry.old), HTMLText.escape(entry.new)), entry] {
                if let swapped = page.replacingOnce(old, with: new) {
                    pending[path] = swapped
                    return true
                }
            }
            return false
        }

        /// An output file as this rebuild leaves it so far.
        private func output(_ path: String) -> String? {
            pending[path] ?? FileManager.default.contents(atPath: options.output.path + "/" + path).map { String(decoding: $0, as: UTF8.self) }
        }

        private func oldText(of relative: String) -> String? {
            if let text = texts[relative] { return text }
            guard let range = memo.articles[relative]?.source, range.count == 2, let sources else { return nil }
            guard (try? sources.seek(toOffset: UInt64(range[0]))) != nil, let data = try? sources.read(upToCount: range[1]), data.count == range[1] else {
                return nil
            }
            return String(decoding: data, as: UTF8.self)
        }

        private func savedSearchMemo(_ language: String) -> SearchIndexMemo? {
            guard let data = try? Data(contentsOf: RebuildMemo.searchFile(in: cache.folder, language: language)) else { return nil }
            return SearchIndexMemo(encoded: Array(data))
        }
    }
}

extension Array where Element == Diagnostic {
    /// Removes one equal finding for each of `found`; false, with some removed, when one is missing.
    fileprivate mutating func removeEach(of found: [Diagnostic]) -> Bool {
        for diagnostic in found {
            guard let index = firstIndex(of: diagnostic) else { return false }
            remove(at: index)
        }
        return true
    }
}

/// The theme a rebuild reads once, when a page first needs it.
private final class Theme {
    private let options: BuildOptions
    private lazy var loaded: TemplateSet? =
        TemplateSet.load(from: options.templates, displayRoot: options.templatesDisplay, folderRequired: options.templatesRequired).0

    init(_ options: BuildOptions) { self.options = options }

    var templates: TemplateSet? { loaded }
}
