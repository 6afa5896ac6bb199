import DetourCodeBlockCheck
import DetourContent
import DetourDiagnostics
import DetourLayout
import DetourSearch
import DetourSupport
import Foundation
import Synchronization

/// `detour build`: a plain function that runs the phases in order — check the output path,
/// stop there if nothing changed since the last build into it (`BuildCache`) or if only
/// articles' text did (`ArticleRebuild` rewrites what shows it), load templates and content,
/// render every page in parallel into a staging folder (the search index built beside them,
/// the search page last), then swap it into place. Nothing is written over the previous output
/// unless every phase succeeded.
public enum SiteBuilder {
    public static func build(_ options: BuildOptions) -> BuildReport {
        build(options, keeping: nil)
    }

    /// The templates and content a build works from, as the build reads them (`detour
    /// snippet` renders from the same).
    static func load(_ options: BuildOptions) -> (TemplateSet?, Content?, [Diagnostic]) {
        let (templates, templateDiagnostics) = loadTemplates(options)
        let (content, contentDiagnostics) = loadContent(options)
        return (templates, content, templateDiagnostics + contentDiagnostics)
    }

    private static func loadTemplates(_ options: BuildOptions) -> (TemplateSet?, [Diagnostic]) {
        TemplateSet.load(from: options.templates, displayRoot: options.templatesDisplay, folderRequired: options.templatesRequired)
    }

    /// The content and what reading it found, the configuration its articles quote included.
    /// `keepsTrees`: false for a build whose pages read their articles' bodies again
    /// (`ContentLoader.keepsTrees`), and whose search index reads the articles' sections back
    /// from a temporary file (`ContentLoader.spillsSections`).
    private static func loadContent(_ options: BuildOptions, keepsTrees: Bool = true) -> (Content?, [Diagnostic]) {
        var loader = ContentLoader(root: options.content, displayRoot: options.contentDisplay, includeDrafts: options.includeDrafts, baseURL: options.baseURL)
        loader.keepsTrees = keepsTrees
        loader.spillsSections = !keepsTrees
        let (content, diagnostics) = loader.load()
        return (content, diagnostics + (content.map(CodeBlockCheck.check) ?? []))
    }

    /// `keeping` is handed the templates and the page model (the content, the error pages'
    /// rendered advice, the search entries) once the output is in place: `detour serve` keeps
    /// them to rebuild one article's page later. `willReplace` runs once the build has
    /// succeeded, just before its output replaces the last.
    static func build(_ options: BuildOptions, keeping: ((TemplateSet, PageModel) -> Void)?, willReplace: () -> Void = {}) -> BuildReport {
        var report = BuildReport()
        report.progress = options.progress
        if let refusal = OutputSafety.check(options) {
            report.diagnostics = [refusal]
            return report
        }
        let cache = options.cache == .off ? nil : BuildCache(output: options.output)
        let cacheKey = cache == nil ? nil : report.time("inputs listed") { BuildCache.key(options) }
        if options.cache == .use, let cache, let cacheKey, let record = cache.record(of: options.output) {
            // The files that changed, when the same detour builds with the same options.
            let changed =
                record.key.detour == cacheKey.detour && record.key.options == cacheKey.options
                ? InputFiles.changes(from: record.key.inputs, to: cacheKey.inputs, options) : nil
            if changed?.isEmpty == true {
                // Files listed racy still hold what the build read: listed by time from now on.
                if record.key.inputs != cacheKey.inputs { cache.save(cacheKey, as: record) }
                (report.upToDate, report.diagnostics) = (true, record.diagnostics)
                (report.errorPages, report.articles, report.files) = (record.errorPages, record.articles, record.files)
                return report
            }
            let start = DispatchTime.now().uptimeNanoseconds
            if let changed, var rebuilt = ArticleRebuild.run(options, cache: cache, key: cacheKey, record: record, changed: changed) {
                rebuilt.phases = report.phases + [("articles rebuilt", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, BuildReport.peakMemory())]
                return rebuilt
            }
        }
        let (templates, templateDiagnostics) = report.time("templates") { loadTemplates(options) }
        let (content, contentDiagnostics) = report.time("content") { loadContent(options, keepsTrees: false) }
        report.diagnostics = templateDiagnostics + contentDiagnostics
        guard let templates, let content, !failed(report.diagnostics, options) else { return report }

        // Files 0644 and folders 0755 (nginx workers run as `nobody`) without a chmod per file.
        let previousMask = umask(0o022)
        defer { umask(previousMask) }
        let output = OutputDirectory(target: options.output)
        do {
            try output.prepare()
        } catch {
            report.diagnostics.append(writeFailure(options, error))
            return report
        }
        // Each body is read again for its pages and let go once its last language's page has
        // it (a preview server's quick rebuilds render theirs again, from bodies of their own).
        let bodies = MarkdownBodies(content: content, contentRoot: options.content, pagesPerArticle: content.site.languages.count)
        let advice = errorPageAdvice(content, bodies: bodies)
        var pages = PageSet(content: content, model: PageModel(content: content, errorPageAdvice: advice, bodies: bodies), templates: templates)
        let cacheStaging = cache.flatMap { cache in
            cacheKey.map { CacheStaging(cache, content: content, includeDrafts: options.includeDrafts, contentRoot: options.content, inputs: $0.inputs) }
        }
        // The search index is built and written on its own thread while the pages render: each
        // fills the other's idle moments. Only the search page waits, as it carries the entry.
        let indexing = DispatchGroup()
        let indexed = Mutex(IndexOutcome())
        DispatchQueue.global().async(group: indexing) { [content] in
            let start = DispatchTime.now().uptimeNanoseconds
            var outcome = IndexOutcome()
            outcome.heads = searchIndex(
                content,
                each: { files in
                    outcome.diagnostics += files.concurrentMap { file in write(file.contents, to: file.path, in: output, options) }.compactMap { $0 }
                    outcome.fileCount += files.count
                }, memo: cacheStaging.map { staging in { staging.stage($1, language: $0) } })
            outcome.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            indexed.withLock { [outcome] in $0 = outcome }
        }
        let isSearch: (PageSet.Job) -> Bool = { if case .search = $0 { true } else { false } }
        let (searchJobs, otherJobs) = (pages.jobs.filter(isSearch), pages.jobs.filter { !isSearch($0) })
        report.diagnostics += report.time("pages") { writePages(otherJobs, of: pages, templates: templates, content: content, to: output, options) }
        report.diagnostics += bodies.changedFiles
        report.time("waiting for the index") { indexing.wait() }
        let index = indexed.withLock { $0 }
        report.concurrentPhases.append(("search index", index.seconds))
        report.diagnostics += index.diagnostics
        pages.model.searchIndexHeads = index.heads
        report.diagnostics += writePages(searchJobs, of: pages, templates: templates, content: content, to: output, options)
        let model = pages.model
        let indexFileCount = index.fileCount
        report.diagnostics += report.time("assets") { copyAssets(templates, to: output, options) }
        guard !failed(report.diagnostics, options) else {
            output.discard()
            cacheStaging?.discard()
            return report
        }
        cache?.forget()
        willReplace()
        do {
            try report.time("output replaced") { try output.commit() }
        } catch {
            output.discard()
            cacheStaging?.discard()
            report.diagnostics.append(writeFailure(options, error))
            return report
        }
        report.wroteOutput = true
        keeping?(templates, model)
        report.files = pages.jobs.reduce(0) { $0 + pages.paths(of: $1).count } + indexFileCount + templates.assets.count
        report.errorPages = content.codes.filter(\.generatesPage).count
        report.articles = content.articles.count
        if let cache, let cacheKey, let cacheStaging {
            let built = report
            report.time("cache written") {
                cacheStaging.save()
                cache.save(cacheKey, report: built, output: options.output)
            }
        }
        report.built = (templates, content, pages)
        return report
    }

    /// What building and writing the search index gave.
    private struct IndexOutcome: Sendable {
        var heads: [String: String] = [:]
        var fileCount = 0
        var diagnostics: [Diagnostic] = []
        var seconds = 0.0
    }

    /// `jobs`' pages, in every language and format, rendered and written in parallel; an error
    /// page over its format's byte budget is reported instead of written.
    private static func writePages(
        _ jobs: [PageSet.Job], of pages: PageSet, templates: TemplateSet, content: Content, to output: OutputDirectory, _ options: BuildOptions
    ) -> [Diagnostic] {
        let done = Atomic<Int>(0)
        let total = jobs.count
        return jobs.concurrentCompactMap { job -> Diagnostic? in
            if let progress = options.progress {
                let count = done.add(1, ordering: .relaxed).newValue
                if count % 250 == 0 || count == total { progress("pages \(count)/\(total)") }
            }
            let paths = pages.paths(of: job)
            if let pieces = pages.pieces(of: job) {
                return paths.lazy.compactMap { path in catchingWriteFailure(options) { try output.write(path, pieces: pieces) } }.first
            }
            let text = pages.render(job, with: templates)
            // A page a template left blank would be served as an empty page; say where.
            if let template = pages.pageTemplate(of: job), text.allSatisfy(\.isWhitespace) {
                return .error(
                    "template.empty-page", "template '\(template)' renders nothing: its pages (\(paths[0]), …) would be blank",
                    at: templates.location(of: template))
            }
            if case .errorPage(let code, let language, let format) = job, let budget = format.budget, text.utf8.count > budget {
                return overBudget(paths[0], bytes: text.utf8.count, budget: budget, code: code, language: language, content: content)
            }
            if case .cloudflarePage(let page, _) = job,
                let problem = CloudflarePageCheck.problem(in: text, of: page, path: paths[0], template: templates.location(of: PageSet.cloudflareTemplate))
            {
                return problem
            }
            return paths.lazy.compactMap { write(text, to: $0, in: output, options) }.first
        }.uniqued(by: { $0.rule == "template.empty-page" ? $0.location.path : nil })
    }

    private static func write(_ text: String, to path: String, in output: OutputDirectory, _ options: BuildOptions) -> Diagnostic? {
        catchingWriteFailure(options) { try output.write(path, text) }
    }

    /// What `writing` threw, as the build reports it.
    private static func catchingWriteFailure(_ options: BuildOptions, _ writing: () throws -> Void) -> Diagnostic? {
        do {
            try writing()
            return nil
        } catch {
            return writeFailure(options, error)
        }
    }

    /// Every language's search index: its files, under `search/<language>/`, and the entries
    /// (`SearchIndexBuilder.Output.head`) by language.
    struct SearchIndexFiles {
        var files: [(path: String, contents: String)] = []
        var heads: [String: String] = [:]
    }

    /// Every language's index at once, or nil once `cancelled` says so (an index a newer save
    /// has made old).
    static func searchIndex(_ content: Content, until cancelled: @Sendable () -> Bool) -> SearchIndexFiles? {
        var index = SearchIndexFiles()
        guard let heads = searchIndex(content, until: cancelled, each: { index.files += $0 }) else { return nil }
        index.heads = heads
        return index
    }

    /// Each language's index, handed to `each` a few files at a time as they are made (a build
    /// writes and lets go of them before the next are made); the entries by language.
    /// `memo`: handed each language and what a later patch of its index needs.
    static func searchIndex(
        _ content: Content, each: (_ files: [(path: String, contents: String)]) -> Void, memo: ((String, SearchIndexMemo) -> Void)? = nil
    ) -> [String: String] {
        searchIndex(content, until: { false }, each: each, memo: memo)!
    }

    /// The same, given up (nil) between and within languages once `cancelled` says so.
    private static func searchIndex(
        _ content: Content, until cancelled: @Sendable () -> Bool, each: (_ files: [(path: String, contents: String)]) -> Void,
        memo: ((String, SearchIndexMemo) -> Void)? = nil
    ) -> [String: String]? {
        let languages = content.site.languages
        var heads: [String: String] = [:]
        let sharing = SearchIndexSharing(sources: SearchPages.sources(of: content))
        for language in languages {
            let folder = SiteLayout.searchIndex(language)
            guard
                let head = SearchIndexBuilder.build(
                    SearchPages.pages(of: content, language: language), language: language, languages: languages, until: cancelled,
                    emit: { files in each(files.map { (folder + $0.path, $0.contents) }) }, memo: memo.map { sink in { sink(language, $0) } },
                    sharing: sharing)
            else { return nil }
            heads[language] = head
        }
        return heads
    }

    /// The theme's static files, as `TemplateSet` made them.
    private static func copyAssets(_ templates: TemplateSet, to output: OutputDirectory, _ options: BuildOptions) -> [Diagnostic] {
        templates.assets.compactMap { asset in
            catchingWriteFailure(options) {
                try (templates.assetBytes[asset] ?? []).withUnsafeBufferPointer { try output.write(TemplateSet.outputPath(ofAsset: asset), bytes: $0) }
            }
        }
    }

    /// Error pages are served by the proxy, far from the help site, so their links are absolute,
    /// into the help site's folder of the page's language.
    /// By language, then status: the advice as HTML and as plain text.
    private static func errorPageAdvice(_ content: Content, bodies: MarkdownBodies) -> PageModel.ErrorPageAdvice {
        var advice: PageModel.ErrorPageAdvice = [:]
        for language in content.site.languages {
            let root = content.site.baseURL + SiteLayout.languageFolder(language, defaultLanguage: content.site.language)
            for code in content.codes where code.generatesPage {
                let text = content.text(of: code, in: language)
                guard let document = text.adviceDocument else { continue }
                let html = bodies.html(document, fromPath: text.adviceFile, language: text.adviceLanguage, root: root)
                let plain = bodies.plainText(document, fromPath: text.adviceFile, language: text.adviceLanguage, root: root)
                advice[language, default: [:]][code.status] = PageModel.Advice(html: html, text: plain)
            }
        }
        return advice
    }

    /// Names the file and what makes it large: a big logo or advice, or a long translation.
    private static func overBudget(_ path: String, bytes: Int, budget: Int, code: ErrorCode, language: String, content: Content) -> Diagnostic {
        let text = content.text(of: code, in: language)
        let at = text.advice?.location ?? code.location
        var message = "\(path) is \(bytes) bytes, over its \(budget)-byte budget"
        if let logo = content.site.logoSVG, logo.utf8.count > budget / 4 {
            message += "; the inlined logo alone takes \(logo.utf8.count) bytes"
        }
        message += "; shorten the advice or the error template"
        return .error("errorpage.too-large", message, at: at)
    }

    static func failed(_ diagnostics: [Diagnostic], _ options: BuildOptions) -> Bool {
        diagnostics.hasErrors || (options.strict && diagnostics.contains { $0.severity == .warning })
    }

    static func writeFailure(_ options: BuildOptions, _ error: Error) -> Diagnostic {
        let reason = (error as NSError).localizedDescription
        return .error("build.write-failed", "cannot write the output: \(reason)", at: SourceLocation(path: options.outputDisplay))
    }
}

extension Array where Element == Diagnostic {
    /// Each diagnostic once per key; those without a key all kept.
    fileprivate func uniqued(by key: (Diagnostic) -> String?) -> [Diagnostic] {
        var seen = Set<String>()
        return filter { diagnostic in key(diagnostic).map { seen.insert($0).inserted } ?? true }
    }
}
