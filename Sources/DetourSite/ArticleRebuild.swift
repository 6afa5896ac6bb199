import DetourCodeBlockCheck
import DetourContent
import DetourDiagnostics
import DetourLayout
import DetourSearch
import DetourSupport
import Foundation

/// `detour build` when only articles' text changed since the last build into the output (their
/// front matter, headings and sections as they were): each article's old text (kept by that
/// build, `RebuildMemo`) and new are read alone, the page body is swapped in each page that
/// shows it, and each language's index is patched (`SearchIndexPatch`). The files that differ
/// are written beside the output and renamed into it together; the findings are the last
/// build's with the article's own replaced. Anything more, or anything a patch cannot do
/// exactly, and the build runs in full instead: the output is what a full build writes.
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
        if cache.save(memo, searchMemos: rebuild.searchMemos.mapValues(\.encoded)) { cache.save(key, report: report, output: options.output) }
        return true
    }

    /// The changes worked out one article at a time, nothing written yet.
    private struct Rebuild {
        let options: BuildOptions
        let cache: BuildCache
        let memo: RebuildMemo
        var standing: [Diagnostic]
        /// Output files to write, by path.
        var pending: [String: String] = [:]
        var searchMemos: [String: SearchIndexMemo] = [:]
        /// The articles' new texts, by content-relative path.
        var texts: [String: String] = [:]
        private let renderer: MarkdownRenderer
        private let sources: FileHandle?

        private let site: ArticleAlone.Site

        init(options: BuildOptions, cache: BuildCache, memo: RebuildMemo, standing: [Diagnostic]) {
            (self.options, self.cache, self.memo, self.standing) = (options, cache, memo, standing)
            site = memo.site
            renderer = site.reader.speaking(memo.strings)
            sources = try? FileHandle(forReadingFrom: RebuildMemo.sourcesFile(in: cache.folder))
        }

        /// Works out what the article at `relative` changes; false when that is more than its text.
        mutating func apply(_ relative: String) -> Bool {
            guard let showings = memo.showings(of: relative), let oldText = oldText(of: relative),
                let newText = FileManager.default.contents(atPath: options.content.path + "/" + relative).map({ String(decoding: $0, as: UTF8.self) })
            else { return false }
            if oldText == newText { return true }
            let (oldArticle, oldFound) = ArticleAlone.read(oldText, relativePath: relative, displayRoot: options.contentDisplay, site: site)
            let (newArticle, newFound) = ArticleAlone.read(newText, relativePath: relative, displayRoot: options.contentDisplay, site: site)
            guard let oldArticle, let newArticle, ArticleAlone.onlyTextChanged(oldArticle, newArticle, oldText: oldText, newText: newText),
                standing.removeEach(of: oldFound + CodeBlockCheck.check(blocks: oldArticle.codeBlocks))
            else { return false }
            standing += newFound + CodeBlockCheck.check(blocks: newArticle.codeBlocks)
            texts[relative] = newText
            if newFound.hasErrors { return true }
            let oldHTML = renderer.html(oldArticle.document, fromPath: relative, root: SiteLayout.nestedRoot)
            let newHTML = renderer.html(newArticle.document, fromPath: relative, root: SiteLayout.nestedRoot)
            for showing in showings {
                if oldHTML != newHTML {
                    guard let page = output(showing.page), let swapped = Self.swap(oldHTML, for: newHTML, in: page) else { return false }
                    pending[showing.page] = swapped
                }
                guard var searchMemo = searchMemos[showing.language] ?? savedSearchMemo(showing.language) else { return false }
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

        /// The search page with the index's entry swapped, as its template shows it (in an
        /// attribute, escaped, or as it is); false when it is not there once.
        private mutating func swapEntry(_ entry: (old: String, new: String)) -> Bool {
            let path = SiteLayout.file(of: SiteLayout.search)
            guard let page = output(path) else { return false }
            for (old, new) in [(HTMLText.escape(entry.old), HTMLText.escape(entry.new)), entry] {
                if let swapped = Self.swap(old, for: new, in: page) {
                    pending[path] = swapped
                    return true
                }
            }
            return false
        }

        /// A page with its body's HTML swapped, when the old HTML is there once, as the page
        /// template put it: anything else (a template that shows the body twice, or altered)
        /// is for a full build.
        private static func swap(_ old: String, for new: String, in page: String) -> String? {
            let (needle, text) = (Array(old.utf8), Array(page.utf8))
            guard !needle.isEmpty, let start = firstOffset(of: needle, in: text, from: 0),
                firstOffset(of: needle, in: text, from: start + needle.count) == nil
            else { return nil }
            return String(decoding: text[..<start] + Array(new.utf8) + text[(start + needle.count)...], as: UTF8.self)
        }

        /// Where `needle` first occurs in `text` at or after `from`, byte for byte.
        private static func firstOffset(of needle: [UInt8], in text: [UInt8], from: Int) -> Int? {
            var start = from
            while start + needle.count <= text.count, let first = text[start...].firstIndex(of: needle[0]) {
                guard first + needle.count <= text.count else { return nil }
                if text[first..<first + needle.count].elementsEqual(needle) { return first }
                start = first + 1
            }
            return nil
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
